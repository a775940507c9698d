"""Writes synthetic/: calibration timings generated from known parameters.

NOT a measurement: a GPU whose time-slicing follows the model exactly with a
2.0 ms time slice and a 250 us context switch (efficiency 0.8889, turn cycle
2.25 ms), plus small deterministic jitter, so that tests can check that
`calibrate fit` recovers the parameters. Run from this directory:
    python3 make_synthetic.py
"""

import os

SLICE_MS = 2.0
SWITCH_MS = 0.25
CYCLE_MS = SLICE_MS + SWITCH_MS
ETA = SLICE_MS / CYCLE_MS
SMS = 132
KERNEL_US = 2000
SECONDS = 5.0
SAMPLES = 200


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "synthetic")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "device.yaml"), "w") as f:
        f.write('gpu: "Synthetic GPU (model with 2.0 ms slices, 250 us '
                'switches)"\n'
                'driver: "0.0"\ncuda: "0.0"\ncompute_capability: "9.0"\n'
                f"sms: {SMS}\nkernel_us: {KERNEL_US}\n")
    alone = SECONDS * 1e6 / KERNEL_US  # kernels one process completes
    with open(os.path.join(out, "throughput.csv"), "w") as f:
        f.write("blocks,processes,process,kernels,seconds\n")
        for blocks in (SMS, SMS // 4):
            for n in range(1, 9):
                total = alone if n == 1 else alone * ETA
                for p in range(n):
                    jitter = ((p * 7 + n * 3) % 5 - 2)  # -2..2 kernels
                    kernels = round(total / n) + (jitter if n > 1 else 0)
                    f.write(f"{blocks},{n},{p},{kernels},{SECONDS:.6f}\n")
    with open(os.path.join(out, "latency.csv"), "w") as f:
        f.write("corunners,corunner_blocks,sample,latency_us\n")
        for k in range(0, 5):
            for i in range(SAMPLES):
                base = 20.0 + 4.0 * ((i * 37) % 11) / 10  # 20..24 us
                u = ((i * 61) % SAMPLES + 0.5) / SAMPLES  # a permutation
                wait = u * k * CYCLE_MS * 1000
                f.write(f"{k},{SMS if k else 0},{i},{base + wait:.3f}\n")


if __name__ == "__main__":
    main()
