# Writes a C++ source defining `extern const char <SYMBOL>[]` (NUL-terminated) and
# `extern const unsigned long <SYMBOL>_size` with the bytes of INPUT.
# Usage: cmake -DINPUT=... -DOUTPUT=... -DSYMBOL=... -P embed_file.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," body "${hex}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by cmake/embed_file.cmake. Do not edit.\n"
  "extern const char ${SYMBOL}[];\n"
  "extern const unsigned long ${SYMBOL}_size;\n"
  "const char ${SYMBOL}[] = {\n${body}'\\0'};\n"
  "const unsigned long ${SYMBOL}_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
