"""`plan --out DIR` writes scenario.yaml with its inputs (the kubectl dumps
of the import and the trace, a catalog file) named relative to DIR (issue
53, point 8): the plan's folder, moved or copied together with those inputs
(a repository cloned elsewhere), replays the same from any directory, and
so does a scenario read from a directory other than the working one.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

import yaml

from cli_harness import binary, main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")

# A catalog file that changes a price only (docs/catalog.md).
CATALOG = "version: 1\nmodels:\n  - name: L4\n    price_per_hour: 0.91\n"


def run_in(cwd, *args):
    result = subprocess.run([binary(), *args], cwd=cwd, capture_output=True,
                            text=True, timeout=120, check=False)
    return result.returncode, result.stdout, result.stderr


class PlanFolderMoveTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        # repo/examples/{kubectl-import.yaml, kubectl/*.json}, repo/cat.yaml
        repo = os.path.join(self.tmp, "repo")
        os.makedirs(os.path.join(repo, "examples"))
        shutil.copytree(os.path.join(EXAMPLES, "kubectl"),
                        os.path.join(repo, "examples", "kubectl"))
        shutil.copy(os.path.join(EXAMPLES, "kubectl-import.yaml"),
                    os.path.join(repo, "examples"))
        with open(os.path.join(repo, "cat.yaml"), "w") as f:
            f.write(CATALOG)
        self.repo = repo

    def replay(self, cwd, scenario, *catalog):
        code, stdout, stderr = run_in(cwd, *catalog, "run", "--quiet",
                                      scenario)
        self.assertEqual(code, 0, stderr)
        return stdout

    def test_the_folder_moves_with_its_inputs(self):
        # Planned from outside the repository: the scenario's paths are
        # relative to examples/, the folder is repo/plans/l4.
        code, _, stderr = run_in(
            self.tmp, "--catalog", "repo/cat.yaml", "plan", "--quiet",
            "repo/examples/kubectl-import.yaml", "--seeds", "1", "--out",
            "repo/plans/l4")
        self.assertIn(code, (0, 3), stderr)
        written = os.path.join(self.repo, "plans", "l4", "scenario.yaml")
        with open(written) as f:
            text = f.read()
        s = yaml.safe_load(text)
        self.assertEqual(s["cluster"]["import"]["file"],
                         "../../examples/kubectl/nodes.json")
        self.assertEqual(s["workload"]["trace"]["file"],
                         "../../examples/kubectl/pods.json")
        self.assertNotIn(self.tmp, text)
        self.assertIn("# Replay it from this folder with: gpushare-sim "
                      "--catalog ../../cat.yaml run scenario.yaml", text)
        before = self.replay(os.path.join(self.repo, "plans", "l4"),
                             "scenario.yaml", "--catalog", "../../cat.yaml")

        # The repository moved (cloned elsewhere): the folder replays the
        # same from its own directory and from anywhere else.
        moved = os.path.join(self.tmp, "elsewhere", "clone")
        os.makedirs(os.path.dirname(moved))
        shutil.move(self.repo, moved)
        self.assertFalse(os.path.exists(self.repo))
        folder = os.path.join(moved, "plans", "l4")
        after = self.replay(folder, "scenario.yaml", "--catalog",
                            "../../cat.yaml")
        self.assertEqual(after, before)
        elsewhere = self.replay("/", os.path.join(folder, "scenario.yaml"),
                                "--catalog", os.path.join(moved, "cat.yaml"))
        self.assertEqual(elsewhere, before)

    def test_absolute_paths_stay(self):
        scenario = os.path.join(self.repo, "examples", "kubectl-import.yaml")
        with open(scenario) as f:
            text = f.read()
        dumps = os.path.join(self.repo, "examples", "kubectl")
        with open(scenario, "w") as f:
            f.write(text.replace("file: kubectl/", "file: " + dumps + "/"))
        out = os.path.join(self.tmp, "out")
        code, _, stderr = run_in(self.tmp, "plan", "--quiet", scenario,
                                 "--seeds", "1", "--out", out)
        self.assertIn(code, (0, 3), stderr)
        with open(os.path.join(out, "scenario.yaml")) as f:
            s = yaml.safe_load(f)
        self.assertEqual(s["cluster"]["import"]["file"],
                         os.path.join(dumps, "nodes.json"))
        # Moved alone, it still finds them.
        shutil.move(out, os.path.join(self.tmp, "moved"))
        self.replay("/", os.path.join(self.tmp, "moved", "scenario.yaml"))


if __name__ == "__main__":
    main()
