"""Keeps the user documentation true to the binary:

- every option of every command's `--help` is in docs/cli.md's synopsis of
  that command and in the synopsis of every command at the top of
  docs/cli.md, and nothing else is; an option shown with an argument takes
  one, a flag takes none, and a choice written `a|b` is the option's set of
  choices; README's "Command line" names every command, and nothing else;
- the example commands of README.md, docs/guide.md and docs/cli.md run (in
  a scratch directory that sees the repository's examples/) and print what
  they show (the built-in `compare` without a scenario, a few seconds, is
  left to compare_cli_test.py);
- README.md is a front door: at most 260 lines, its links into docs/ name
  files and headings that exist, and it links docs/benchmarks.md;
- README.md, docs/*.md and the comments of examples/ and bench/scenarios/
  name no issue of this project ("issue 38", "(#38)"); an upstream
  project's issue, written after its repository, is a source and stays;
- every key the scenario readers accept is in docs/scenario.md, and every
  model parameter is in docs/model.md's table with the code's default;
- the YAML snippets of docs/scenario.md, docs/cli.md and docs/catalog.md and
  the job list of docs/scenario.md are accepted;
- README.md, docs/*.md and the catalog's comments cite public sources only, never the project's
  research notes outside the repository (`k8s-gpu-specs.md`,
  `literature.md`, `emit-formats-and-peers.md`, `fgd-openb-protocol.md`, or
  a path under `../shared/` or `shared/research/`), which users cannot open.

Run as: python3 tests/docs_test.py --binary /path/to/gpushare-sim
"""

import glob
import os
import re
import shlex
import shutil
import subprocess
import unittest

from cli_harness import TempDirTestCase, binary, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_doc(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def fenced_blocks(text, lang=""):
    """The bodies of the ``` blocks of `text` opened with exactly `lang` (or
    any of the tuple `lang`), in order (fences paired in order, so the text
    between two blocks is never one)."""
    langs = lang if isinstance(lang, tuple) else (lang,)
    blocks = []
    opened = None  # (language, lines) of the block being read
    for line in text.splitlines(keepends=True):
        if opened is None:
            if line.startswith("```"):
                opened = (line[3:].strip(), [])
        elif line.rstrip("\n") == "```":
            if opened[0] in langs:
                blocks.append("".join(opened[1]))
            opened = None
        else:
            opened[1].append(line)
    return blocks


def help_text(path):
    code, out, err = run(*path, "--help")
    assert code == 0, (path, err)
    return out


def command_paths(path=()):
    """Every leaf command (a tuple of words), found through `--help`."""
    out = help_text(path)
    if "Subcommands:" not in out:
        return [path]
    names = re.findall(r"^  ([a-z][a-z0-9-]*)\s", out.split("Subcommands:")[1],
                       re.MULTILINE)
    return [leaf for name in names for leaf in command_paths(path + (name,))]


class Options:
    """Long options (without --help): whether each takes a value, and the
    choices of those that list them."""

    def __init__(self):
        self.takes_value = {}
        self.choices = {}

    @staticmethod
    def from_help(text):
        options = Options()
        for line in text.splitlines():
            m = re.match(r"^\s+(?:-\w,)?(--[a-z][\w-]*)( \S+)?", line)
            if not m or m.group(1) == "--help":
                continue
            options.takes_value[m.group(1)] = m.group(2) is not None
            choices = re.match(r" \w+:\{([^}]*)\}", m.group(2) or "")
            if choices:
                options.choices[m.group(1)] = set(choices.group(1).split(","))
        return options

    @staticmethod
    def from_synopsis(text):
        options = Options()
        for m in re.finditer(r"(--[a-z][\w-]*)( [^\s\[\]]+)?", text):
            if m.group(1) == "--help":
                continue
            value = (m.group(2) or "").strip()
            options.takes_value[m.group(1)] = bool(value)
            if "|" in value:
                options.choices[m.group(1)] = set(value.split("|"))
        return options


def cli_md_synopsis(path):
    """The text of docs/cli.md's `gpushare-sim PATH ...` spans, joined."""
    text = read_doc("docs/cli.md")
    if not path:
        return "\n".join(line for line in text.splitlines()
                         if line.startswith("gpushare-sim ["))
    words = " ".join(path)
    spans = []
    for span in re.findall(r"`gpushare-sim ([^`]+)`", text):
        span = " ".join(span.split())
        if span == words or span.startswith(words + " "):
            spans.append(span[len(words):])
    return "\n".join(spans)


def cli_md_overview_synopses():
    """The block of every command at the top of docs/cli.md (before its
    first section): {command path: its synopsis text}."""
    text = read_doc("docs/cli.md").split("\n## ", 1)[0]
    block = fenced_blocks(text)[0]
    synopses = {}
    current = None
    for line in block.splitlines():
        if line.startswith("gpushare-sim "):
            synopses[()] = line
            continue
        indent = len(line) - len(line.lstrip())
        if not line.strip() or indent >= 20:
            continue  # blank, or only the description column
        part = re.split(r"\s{2,}", line.strip())[0]
        if indent == 2:
            words = []
            for token in part.split():
                if not re.fullmatch(r"[a-z][a-z0-9-]*", token):
                    break
                words.append(token)
            current = tuple(words)
            synopses[current] = part[len(" ".join(words)):]
        else:
            synopses[current] += " " + part
    return synopses


class CliOptionsTest(TempDirTestCase):

    def check(self, where, path, documented):
        actual = Options.from_help(help_text(path))
        doc = Options.from_synopsis(documented)
        label = "%s: gpushare-sim %s" % (where, " ".join(path))
        self.assertEqual(sorted(doc.takes_value), sorted(actual.takes_value),
                         label)
        for option, value in actual.takes_value.items():
            self.assertEqual(doc.takes_value[option], value,
                             "%s %s: argument" % (label, option))
        for option, choices in doc.choices.items():
            self.assertEqual(choices, actual.choices.get(option),
                             "%s %s: choices" % (label, option))

    def test_cli_md_documents_every_option(self):
        paths = command_paths()
        self.assertIn(("experiment", "fgd"), paths)
        for path in [()] + paths:
            self.check("docs/cli.md", path, cli_md_synopsis(path))

    def test_cli_md_overview_lists_every_option(self):
        synopses = cli_md_overview_synopses()
        paths = command_paths()
        self.assertEqual(sorted(synopses), sorted([()] + paths))
        for path in [()] + paths:
            self.check("docs/cli.md (overview)", path, synopses[path])

    def test_readme_names_every_command(self):
        # README's "Command line" block: a line per command, `  NAME` or
        # `  NAME SUB|SUB|...` before the description; every leaf command
        # of `--help` is named there, and nothing else.
        text = read_doc("README.md").split("## Command line", 1)[1]
        named = set()
        for line in fenced_blocks(text)[0].splitlines():
            if not line.startswith("  ") or line.startswith("   "):
                continue
            words = re.split(r"\s{2,}", line.strip())[0].split()
            if len(words) > 1 and re.fullmatch(r"[a-z0-9-]+(\|[a-z0-9-]+)*",
                                               words[1]):
                named.update((words[0], sub) for sub in words[1].split("|"))
            else:
                named.add((words[0],))
        paths = set(command_paths())
        # A command named alone stands for all its subcommands only when
        # it has none.
        self.assertEqual(sorted(named), sorted(paths))


def normalize(text):
    return re.sub(r"\(\d+\.\d+s wall\)", "(N s wall)", text)


class ReadmeExamplesTest(TempDirTestCase):
    """Runs the `$ gpushare-sim ...` lines of README.md, docs/guide.md and
    docs/cli.md, each file in a scratch directory of its own that sees the
    repository's examples/ (they run them from the root)."""

    def setUp(self):
        super().setUp()
        os.symlink(os.path.join(ROOT, "examples"), self.path("examples"))
        # The files README's own-cluster example makes with kubectl.
        for name in ("nodes.json", "pods.json"):
            shutil.copy(os.path.join(ROOT, "examples", "kubectl", name),
                        self.path(name))

    def shell(self, command):
        command = command.replace("gpushare-sim", shlex.quote(binary()), 1)
        return subprocess.run(command, shell=True, cwd=self.tmp.name,
                              capture_output=True, text=True, timeout=60,
                              check=False)

    def check_command(self, command, shown):
        result = self.shell(command)
        errors = [line for line in shown if line.startswith("error:")]
        self.assertEqual(result.returncode, 2 if errors else 0,
                         (command, result.stderr))
        out = normalize(result.stdout + result.stderr).splitlines()
        tail = re.search(r"\| tail -(\d+)$", command)
        if tail:
            self.assertEqual(out[-int(tail.group(1)):], shown, command)
            return
        for line in shown:
            line = normalize(line)
            if line.strip() == "…":
                continue
            if "…" in line:
                prefix = line.split("…")[0]
                self.assertTrue(any(o.startswith(prefix) for o in out),
                                (command, line))
            else:
                self.assertIn(line, out, command)

    def test_readme_commands(self):
        self.assertGreaterEqual(self.run_commands("README.md"), 4)

    def test_guide_commands(self):
        self.assertGreaterEqual(self.run_commands("docs/guide.md"), 8)

    def test_cli_md_commands(self):
        self.assertGreaterEqual(self.run_commands("docs/cli.md"), 8)

    def run_commands(self, name):
        """Runs the `$ gpushare-sim ...` lines of `name`'s ``` and ```sh
        blocks and checks what they print; returns how many ran."""
        readme = read_doc(name)
        ran = 0
        for block in fenced_blocks(readme, ("", "sh")):
            lines = block.splitlines()
            i = 0
            while i < len(lines):
                if not lines[i].startswith("$ "):
                    i += 1
                    continue
                command = lines[i][2:]
                i += 1
                while command.endswith("\\"):
                    command = command[:-1] + lines[i].strip()
                    i += 1
                here = re.match(r"cat > (\S+) <<'(\w+)'$", command)
                if here:  # a file written by a here-document
                    end = lines.index(here.group(2), i)
                    with open(self.path(here.group(1)), "w",
                              encoding="utf-8") as f:
                        f.write("\n".join(lines[i:end]) + "\n")
                    i = end + 1
                    continue
                shown = []
                while i < len(lines) and not lines[i].startswith("$ "):
                    shown.append(lines[i])
                    i += 1
                command = re.sub(r"\s+#.*$", "", command)
                words = command.split()
                if words[0] != "gpushare-sim" or words[1:] == ["compare"]:
                    continue  # kubectl, promtool; the slow default compare
                self.check_command(command, shown)
                ran += 1
        return ran


def allowed_keys(source):
    """The keys of every `AllowOnly({...})` in a reader's source file."""
    with open(os.path.join(ROOT, "src", "gpushare", source),
              encoding="utf-8") as f:
        text = f.read()
    keys = set()
    for keys_list in re.findall(r"AllowOnly\(\{(.*?)\}\)", text, re.DOTALL):
        keys.update(re.findall(r'"([a-z_0-9]+)"', keys_list))
    return keys


class ReferenceTest(TempDirTestCase):

    def test_scenario_md_documents_every_key_the_readers_accept(self):
        doc = read_doc("docs/scenario.md")
        keys = set()
        # Every reader of the scenario's sections (scenario/*_reader.cc),
        # and compare's and plan's sections.
        readers = sorted(
            os.path.relpath(p, os.path.join(ROOT, "src", "gpushare"))
            for p in glob.glob(os.path.join(ROOT, "src", "gpushare",
                                            "scenario", "*_reader.cc")))
        self.assertIn("scenario/scenario_reader.cc", readers)
        for source in readers + ["decide/comparison_spec_reader.cc",
                                 "decide/plan_spec_reader.cc"]:
            keys |= allowed_keys(source)
        self.assertIn("mig_reapply_s", keys)
        # A key is documented when it is a word of some `code` span: `key`
        # in a table, or inside a form like `{lognormal: {median: m, ...}}`.
        prose = re.sub(r"^```.*?^```$", "", doc, flags=re.MULTILINE | re.DOTALL)
        words = set()
        for span in re.findall(r"`([^`\n]+)`", prose):
            words.update(re.findall(r"[a-z_0-9]+", span))
        missing = sorted(keys - words)
        self.assertEqual(missing, [])

    def test_model_md_lists_every_model_parameter_with_its_default(self):
        with open(os.path.join(ROOT, "src", "gpushare", "exec",
                               "model_params.h"), encoding="utf-8") as f:
            fields = re.findall(r"^  (?:double|int|bool) (\w+) = ([^;]+);",
                                f.read(), re.MULTILINE)
        self.assertGreaterEqual(len(fields), 10)
        doc = read_doc("docs/model.md")
        for name, default in fields:
            row = "\n| `%s` | %s |" % (name, default)
            self.assertTrue(row in doc, "docs/model.md lacks the row" + row)


class DocSnippetsTest(TempDirTestCase):

    def run_ok(self, *args):
        code, _, err = run(*args)
        self.assertEqual(code, 0, (args, err))

    def test_scenario_md_yaml(self):
        blocks = fenced_blocks(read_doc("docs/scenario.md"), "yaml")
        self.assertGreaterEqual(len(blocks), 2)
        for n, block in enumerate(blocks):
            if block.startswith("plan:"):
                # The plan: snippet, on the pools and classes it names.
                block = (
                    "cluster:\n  pools:\n"
                    "    - {name: serve, gpu: H100-80GB, nodes: 1}\n"
                    "    - {name: tune, gpu: A100-80GB, nodes: 1}\n"
                    "workload:\n  classes:\n"
                    "    - {name: services, class: inference, count: 2,"
                    " work_s: 0, lifetime_s: 60}\n"
                    "    - {name: evaluation, class: batch, count: 2,"
                    " work_s: 60}\n" + block)
                path = self.write("snippet%d.yaml" % n, block)
                code, _, err = run("plan", path, "--quiet")
                self.assertIn(code, (0, 3), err)
                continue
            if "cluster:" not in block:
                # A partial snippet (compare:, selection:): a cluster and
                # the tenant classes its selection names.
                classes = re.search(r"^  classes:\n((?:    .*\n)*)", block,
                                    re.MULTILINE)
                names = re.findall(r"^    ([a-z0-9-]+):",
                                   classes.group(1) if classes else "",
                                   re.MULTILINE)
                block += (
                    "cluster: {pools: [{name: p, gpu: A100-80GB, nodes: 1}]}\n"
                    "workload:\n  classes:\n" + "".join(
                        "    - {name: %s, class: batch, count: 2, "
                        "work_s: 60}\n" % name for name in names or ["a"]))
                command = "compare"
            else:
                command = "run"
            path = self.write("snippet%d.yaml" % n, block)
            self.run_ok(command, path, "--quiet")

    def test_scenario_md_job_list(self):
        doc = read_doc("docs/scenario.md").split("**Job lists**", 1)[1]
        header, rows = fenced_blocks(doc)[:2]
        self.assertTrue(header.startswith("name,tenant_class,"), header)
        self.write("jobs.csv", header + rows)
        pools = sorted(set(re.findall(r"gpushare.io/node-pool=([a-z0-9-]+)",
                                      rows))) or ["gpu"]
        path = self.write("jobs.yaml", (
            "cluster:\n  pools:\n" + "".join(
                "    - {name: %s, gpu: A100-80GB, nodes: 1}\n" % p
                for p in pools) +
            "workload: {trace: {format: jobs, file: jobs.csv}}\n"))
        self.run_ok("run", path, "--quiet")

    def test_cli_md_yaml(self):
        # Paths in the snippets are relative to a scenario in docs/.
        for n, block in enumerate(
                fenced_blocks(read_doc("docs/cli.md"), "yaml")):
            block = block.replace("../data/", os.path.join(ROOT, "data") + "/")
            if block.startswith("calibration:"):  # a calibration file
                self.run_ok("run", os.path.join(ROOT, "examples",
                                                "dev-time-slicing.yaml"),
                            "--quiet", "--calibration",
                            self.write("cli%d.yaml" % n, block))
                continue
            self.run_ok("run", self.write("cli%d.yaml" % n, block), "--quiet")

    def test_catalog_md_yaml(self):
        blocks = fenced_blocks(read_doc("docs/catalog.md"), "yaml")
        self.assertGreaterEqual(len(blocks), 2)
        for n, block in enumerate(blocks):
            path = self.write("catalog%d.yaml" % n, block)
            self.run_ok("--catalog", path, "catalog")


def github_slug(heading):
    """The anchor GitHub gives a Markdown heading: lower case, punctuation
    other than `-` and `_` dropped, spaces made `-`."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


class FrontDoorTest(unittest.TestCase):
    """README.md is what a newcomer reads to the end: short, and pointing
    into docs/ where the rest lives."""

    def test_readme_is_short(self):
        lines = read_doc("README.md").splitlines()
        self.assertLessEqual(len(lines), 260)

    def test_readme_links_name_files_and_headings_that_exist(self):
        readme = read_doc("README.md")
        links = re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)(?:#([\w-]+))?\)",
                           readme)
        self.assertGreaterEqual(len(links), 5)
        for target, anchor in links:
            self.assertTrue(os.path.isfile(os.path.join(ROOT, target)),
                            target)
            if anchor:
                slugs = {github_slug(h) for h in re.findall(
                    r"^#+ (.*)$", read_doc(target), re.MULTILINE)}
                self.assertIn(anchor, slugs, target)

    def test_readme_links_the_benchmarks(self):
        self.assertTrue(os.path.isfile(os.path.join(ROOT, "docs",
                                                    "benchmarks.md")))
        self.assertIn("](docs/benchmarks.md)", read_doc("README.md"))
        # The table lives there, with the cases scripts/bench runs.
        bench = read_doc("docs/benchmarks.md")
        for case in ("run-100k/exclusive", "scale-1m", "scale-1m-saturated",
                     "queue-12k", "plan-10x"):
            self.assertRegex(bench, r"\n%s +" % re.escape(case))
        for scenario in glob.glob(os.path.join(ROOT, "bench", "scenarios",
                                               "*.yaml")):
            self.assertIn("`bench/scenarios/%s`" % os.path.basename(scenario),
                          bench)


# "issue 38", "issues 38 and 39", "(#38)", "#38 of this project": this
# project's issues, which users cannot open. An upstream issue is cited
# after its repository ("NVIDIA/dcgm-exporter issue #307", "HAMi issue
# 1099", "vllm-project/vllm#235") and stays.
PROJECT_ISSUE = re.compile(r"\bissues? #?\d+|\(#\d+\)|#\d+ of this project",
                           re.IGNORECASE)
UPSTREAM_BEFORE = re.compile(
    r"(?:[\w.-]+/[\w.-]+|HAMi|vLLM|NVIDIA [\w-]+|pull request #\d+ and)\s*$")


def project_issue_mentions(name, text):
    hits = []
    for m in PROJECT_ISSUE.finditer(text):
        if "#" in m.group(0) and "issue" in m.group(0).lower():
            before = text[max(0, m.start() - 80):m.start()]
            if UPSTREAM_BEFORE.search(before):
                continue
        elif UPSTREAM_BEFORE.search(text[max(0, m.start() - 80):m.start()]):
            continue
        line = text.count("\n", 0, m.start()) + 1
        hits.append("%s:%d: %s" % (name, line, m.group(0)))
    return hits


class NoProjectIssuesTest(unittest.TestCase):

    def test_mentions_are_found(self):
        self.assertEqual(len(project_issue_mentions(
            "t", "as issue 38 did (#41); issues 7 and 8; HAMi issue 1099, "
                 "NVIDIA/dcgm-exporter issue #307, vllm-project/vllm#235")), 3)

    def test_user_docs_name_no_issue_of_this_project(self):
        hits = []
        for path in (["README.md"] + sorted(glob.glob(os.path.join(
                ROOT, "docs", "*.md")))):
            name = os.path.relpath(os.path.join(ROOT, path), ROOT)
            text = read_doc(name)
            hits += project_issue_mentions(name, text)
        for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.yaml")) +
                           glob.glob(os.path.join(ROOT, "bench", "scenarios",
                                                  "*.yaml"))):
            name = os.path.relpath(path, ROOT)
            comments = "\n".join(line.split("#", 1)[1] if "#" in line else ""
                                  for line in read_doc(name).splitlines())
            hits += project_issue_mentions(name, comments)
        self.assertEqual(hits, [], "\n" + "\n".join(hits))


# Research notes kept outside the repository: a user of the repository
# cannot open them, so the user documentation must cite the public sources.
OUT_OF_REPO_NOTE = re.compile(
    r"k8s-gpu-specs\.md|literature\.md|emit-formats-and-peers\.md"
    r"|fgd-openb-protocol\.md|\.\./shared/|\bshared/research/")


class CitationsTest(unittest.TestCase):

    def test_docs_cite_no_note_outside_the_repository(self):
        names = ["README.md", "catalog/gpus.yaml"] + sorted(
            os.path.relpath(path, ROOT)
            for path in glob.glob(os.path.join(ROOT, "docs", "*.md")))
        self.assertIn("docs/model.md", names)
        hits = []
        for name in names:
            for number, line in enumerate(read_doc(name).splitlines(), 1):
                if OUT_OF_REPO_NOTE.search(line):
                    hits.append("%s:%d: %s" % (name, number, line.strip()))
        self.assertEqual(hits, [], "\n" + "\n".join(hits))

    def test_cited_repository_files_exist(self):
        # A path in backquotes that starts where this repository's files do
        # (a top-level folder, or a layer of src/gpushare as docs/model.md
        # cites them) must name a file that is there; upstream paths are
        # cited with their repository and start elsewhere.
        # Upstream files whose paths look like ours, each cited beside its
        # repository.
        upstream = {
            "examples/nvidia/*.yaml": "Project-HAMi/HAMi",
            "src/nvidia/src/kernel/gpu/fifo/arch/volta/kernel_fifo_gv100.c":
                "NVIDIA/open-gpu-kernel-modules",
            "examples/basic/A36_Nvidia_MPS/MPS_Tutorial.md":
                "Oakwoo/seed-emulator",
            "src/multiprocess/multiprocess_utilization_watcher.c":
                "Project-HAMi/HAMi-core",
        }
        layers = sorted(os.listdir(os.path.join(ROOT, "src", "gpushare")))
        tops = ["src", "tests", "examples", "bench", "scripts", ".ci",
                "calibrate", "catalog"]
        path = re.compile(r"`((?:%s)/[A-Za-z0-9_./{},*-]+)`"
                          % "|".join(re.escape(t) for t in tops + layers))
        names = ["README.md"] + sorted(
            os.path.relpath(p, ROOT)
            for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
        missing = []
        checked = 0
        for name in names:
            for number, line in enumerate(read_doc(name).splitlines(), 1):
                for cited in path.findall(line):
                    variants = [cited]
                    brace = re.search(r"\{([^}]*)\}", cited)
                    if brace:
                        variants = [cited[:brace.start()] + ext +
                                    cited[brace.end():]
                                    for ext in brace.group(1).split(",")]
                    for v in variants:
                        if v in upstream:
                            repo = upstream[v].split("/")[1]
                            self.assertIn(repo, line, "%s:%d" % (name, number))
                            continue
                        if re.search(r"(^|/)[A-Z]{3,}(/|$)", v):
                            continue  # a placeholder: TARGET, DIR
                        checked += 1
                        found = any(glob.glob(os.path.join(ROOT, base, v))
                                    for base in ("", "src/gpushare"))
                        if not found:
                            missing.append("%s:%d: %s" % (name, number, v))
        self.assertGreater(checked, 50)
        self.assertEqual(missing, [], "\n" + "\n".join(missing))


if __name__ == "__main__":
    main()
