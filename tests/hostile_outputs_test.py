"""Outputs against a hostile machine (issue 51; docs/reliability.md,
"Outputs"): a link another user planted in a sticky world-writable folder
is never followed (the kernel's fs.protected_symlinks rule, applied by
gpushare-sim itself since it resolves links and renames over their
targets), a folder written as a set never holds a link, and two
gpushare-sim runs never write one output folder at once (`emit k8s --out`,
`plan --out`, `sweep --out`): the second fails at once, exit 2, naming the
first's pid.

The link tests plant links as user 65534 (nobody) from a forked child that
drops root with setuid(); they need root (CI runs as root) and skip, saying
so, otherwise.
"""

import fcntl
import os
import subprocess
import threading
import time

from cli_harness import TempDirTestCase, binary, main, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "examples", "dev-time-slicing.yaml")
DEFAULT = os.path.join(ROOT, "examples", "default.yaml")
NOBODY = 65534
MANIFEST = ".gpushare-sim-files"


def as_user(uid, action):
    """Runs `action` in a forked child with user and group `uid`; returns
    whether it succeeded."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            action()
            os._exit(0)
        except BaseException:  # pylint: disable=broad-except
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text, mode=0o644):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, mode)


class PlantedLinkTest(TempDirTestCase):
    """A link in a sticky world-writable folder (like /tmp) is followed only
    when the user or the folder's owner made it."""

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("planting a link as another user needs root "
                          "(setuid to nobody in a forked child)")
        os.chmod(self.tmp.name, 0o755)  # nobody may reach the sticky folder
        self.sticky = self.path("sticky")
        os.mkdir(self.sticky)
        os.chmod(self.sticky, 0o1777)
        # What only root may read or write: a 0600 file in a 0700 folder.
        self.secret = self.path("root-only")
        os.mkdir(self.secret, 0o700)
        self.victim = os.path.join(self.secret, "victim")
        write(self.victim, "precious", 0o600)

    def plant(self, target, name):
        link = os.path.join(self.sticky, name)
        self.assertTrue(as_user(NOBODY, lambda: os.symlink(target, link)),
                        "could not plant the link as nobody")
        self.assertEqual(os.lstat(link).st_uid, NOBODY)
        return link

    def test_run_json_refuses_a_link_planted_by_another_user(self):
        link = self.plant(self.victim, "r.json")
        status, out, err = run("run", SCENARIO, "--quiet", "--json", link)
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertIn(f"error: {link}: '{link}' is a link owned by user "
                      f"{NOBODY} in the sticky world-writable folder", err)
        self.assertIn("fs.protected_symlinks", err)
        self.assertEqual(read(self.victim), "precious")
        self.assertEqual(os.stat(self.victim).st_mode & 0o777, 0o600)

    def test_emit_refuses_a_folder_link_planted_by_another_user(self):
        link = self.plant(self.secret, "k8s")
        before = sorted(os.listdir(self.secret))
        status, out, err = run("emit", "k8s", "--scenario", SCENARIO,
                               "--out", link)
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertIn("is a link owned by user 65534 in the sticky "
                      "world-writable folder", err)
        self.assertEqual(sorted(os.listdir(self.secret)), before)
        # Also a file under the planted folder link.
        status, _, err = run("run", SCENARIO, "--quiet", "--json",
                             os.path.join(link, "r.json"))
        self.assertEqual(status, 2, err)
        self.assertEqual(sorted(os.listdir(self.secret)), before)

    def test_sweep_refuses_a_folder_link_planted_by_another_user(self):
        link = self.plant(self.secret, "sweep")
        grid = self.path("grid.yaml")
        write(grid, f"scenario: {SCENARIO}\ncommand: run\ncross:\n"
                    "  seed: [1]\n")
        status, _, err = run("sweep", "--grid", grid, "--out", link,
                             "--quiet")
        self.assertEqual(status, 2, err)
        self.assertIn("sticky world-writable folder", err)
        self.assertEqual(sorted(os.listdir(self.secret)), ["victim"])

    def test_links_the_kernel_would_follow_are_followed(self):
        # The user's own link: its target is replaced, the link kept.
        mine = os.path.join(self.sticky, "mine.json")
        os.symlink(self.victim, mine)
        status, _, err = run("run", SCENARIO, "--quiet", "--json", mine)
        self.assertEqual(status, 0, err)
        self.assertTrue(os.path.islink(mine))
        self.assertTrue(read(self.victim).startswith("{"))
        # The folder owner's link in a sticky folder nobody owns.
        owned = self.path("nobodys")
        os.mkdir(owned)
        os.chmod(owned, 0o1777)
        os.chown(owned, NOBODY, NOBODY)
        theirs = os.path.join(owned, "theirs.json")
        target = self.path("target.json")
        write(target, "old")
        self.assertTrue(as_user(NOBODY, lambda: os.symlink(target, theirs)))
        status, _, err = run("run", SCENARIO, "--quiet", "--json", theirs)
        self.assertEqual(status, 0, err)
        self.assertTrue(read(target).startswith("{"))


class SetFolderLinkTest(TempDirTestCase):
    """A folder written as a set (emit k8s --out, plan --out) holds no
    link, whoever made it."""

    def test_emit_and_plan_refuse_a_link_in_their_folder(self):
        out_dir = self.path("k8s")
        status, _, err = run("emit", "k8s", "--scenario", SCENARIO, "--out",
                             out_dir)
        self.assertEqual(status, 0, err)
        name = next(n for n in sorted(os.listdir(out_dir))
                    if not n.startswith("."))
        victim = self.path("victim")
        write(victim, "precious", 0o600)
        os.remove(os.path.join(out_dir, name))
        os.symlink(victim, os.path.join(out_dir, name))
        for args in (["emit", "k8s", "--scenario", SCENARIO],
                     ["plan", SCENARIO, "--quiet", "--seeds", "1"]):
            with self.subTest(args[0]):
                status, out, err = run(*args, "--out", out_dir)
                self.assertEqual(status, 2, err)
                self.assertEqual(out, "")
                self.assertIn(f"error: {out_dir}: holds a link ({name}); a "
                              "folder written as a set holds only the files "
                              "gpushare-sim wrote, never links", err)
                self.assertEqual(read(victim), "precious")
                self.assertTrue(os.path.islink(os.path.join(out_dir, name)))


class PipeByFdTest(TempDirTestCase):

    def test_a_pipe_named_by_dev_fd_is_written_in_place(self):
        # /dev/fd/N resolves to "pipe:[M]", which no open() finds: a shell's
        # `--json >(jq .)` must still work.
        read_end, write_end = os.pipe()
        received = []

        def drain():
            with os.fdopen(read_end, "rb") as f:
                received.append(f.read())

        reader = threading.Thread(target=drain)
        reader.start()
        try:
            result = subprocess.run(
                [binary(), "run", SCENARIO, "--quiet", "--json",
                 f"/dev/fd/{write_end}"], pass_fds=(write_end,),
                capture_output=True, timeout=60, check=False)
        finally:
            os.close(write_end)
            reader.join(timeout=60)
        received = received[0] if received else b""
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(received.startswith(b"{"), received[:80])


class HeldLock:
    """An exclusive flock on a folder, as another gpushare-sim holds it."""

    def __init__(self, folder):
        self.fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def release(self):
        os.close(self.fd)


class ConcurrentWritersTest(TempDirTestCase):

    def listed(self, folder):
        return [line for line in read(os.path.join(folder, MANIFEST))
                .splitlines() if line and not line.startswith("#")]

    def test_a_locked_set_folder_is_refused_at_once(self):
        for args in (["emit", "k8s", "--scenario", SCENARIO],
                     ["plan", SCENARIO, "--quiet", "--seeds", "1"]):
            with self.subTest(args[0]):
                out_dir = self.path(args[0])
                os.mkdir(out_dir)
                lock = HeldLock(out_dir)
                try:
                    status, out, err = run(*args, "--out", out_dir)
                finally:
                    lock.release()
                self.assertEqual(status, 2, err)
                self.assertEqual(out, "")
                self.assertIn(f"error: {out_dir}: is being written by another "
                              f"gpushare-sim (pid {os.getpid()})", err)
                self.assertEqual(os.listdir(out_dir), [])

    def test_two_emits_into_one_folder_leave_one_whole_set(self):
        # Two scenarios with different sets, started together 20 times: each
        # run succeeds or is refused for the lock, and the folder always
        # holds exactly the set its manifest lists.
        for i in range(20):
            out_dir = self.path(f"k8s-{i}")
            procs = [subprocess.Popen(
                [binary(), "emit", "k8s", "--scenario", s, "--out", out_dir],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for s in (DEFAULT, SCENARIO)]
            results = [(p.wait(timeout=60), p.stderr.read().decode())
                       for p in procs]
            for p in procs:
                p.stdout.close()
                p.stderr.close()
            for status, err in results:
                if status != 0:
                    self.assertEqual(status, 2, err)
                    self.assertIn("is being written by another gpushare-sim",
                                  err)
            self.assertIn(0, [status for status, _ in results])
            files = sorted(n for n in os.listdir(out_dir)
                           if not n.startswith("."))
            self.assertEqual(sorted(os.listdir(out_dir)),
                             sorted(files + [MANIFEST]), f"round {i}")
            self.assertEqual(self.listed(out_dir), files, f"round {i}")

    def test_a_locked_sweep_folder_is_refused_at_once(self):
        grid = self.path("grid.yaml")
        write(grid, f"scenario: {SCENARIO}\ncommand: run\ncross:\n"
                    "  seed: [1]\n")
        out_dir = self.path("sweep")
        os.mkdir(out_dir)
        lock = HeldLock(out_dir)
        try:
            status, out, err = run("sweep", "--grid", grid, "--out", out_dir,
                                   "--quiet")
        finally:
            lock.release()
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertIn(f"error: {out_dir}: is being written by another "
                      f"gpushare-sim (pid {os.getpid()})", err)
        # Nothing is left: the points folder this run made is removed.
        self.assertEqual(os.listdir(out_dir), [])

    def test_a_second_sweep_fails_while_the_first_writes(self):
        long_grid = self.path("long.yaml")
        write(long_grid, f"scenario: {SCENARIO}\ncommand: run\n"
                         "set:\n  workload.horizon_s: 1800\ncross:\n"
                         "  cluster.pools[l4].sharing.replicas: "
                         "{from: 2, to: 8}\n"
                         f"  seed: {list(range(1, 31))}\n")
        other_grid = self.path("other.yaml")
        write(other_grid, f"scenario: {SCENARIO}\ncommand: run\ncross:\n"
                          "  seed: [7]\n")
        out_dir = self.path("sweep")
        first = subprocess.Popen(
            [binary(), "sweep", "--grid", long_grid, "--out", out_dir,
             "--quiet", "--threads", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        points = os.path.join(out_dir, "points")
        deadline = time.monotonic() + 60
        while (first.poll() is None and time.monotonic() < deadline and
               not (os.path.isdir(points) and os.listdir(points))):
            time.sleep(0.01)
        # The same sweep (it would run the points not yet written) and
        # another sweep (whose points would replace the first's).
        same = run("sweep", "--grid", long_grid, "--out", out_dir, "--quiet")
        other = run("sweep", "--grid", other_grid, "--out", out_dir,
                    "--quiet")
        first_still_running = first.poll() is None
        first_out, first_err = first.communicate(timeout=120)
        self.assertEqual(first.returncode, 0, first_err)
        if not first_still_running:
            self.skipTest("the first sweep ended before the others started")
        held = (f"error: {out_dir}: is being written by another gpushare-sim "
                f"(pid {first.pid})")
        self.assertEqual(same[:2], (2, ""), same[2])
        self.assertIn(held, same[2])
        # Refused for the lock, or (when the first's point files are seen
        # before) as another sweep's folder.
        self.assertEqual(other[:2], (2, ""), other[2])
        self.assertTrue(held in other[2] or "belongs to another sweep"
                        in other[2], other[2])
        self.assertIn(b"210 points; 210 run now", first_out)
        summary = read(os.path.join(out_dir, "summary.csv")).splitlines()
        self.assertEqual(len(summary), 211)
        self.assertEqual(len(os.listdir(points)), 210)


if __name__ == "__main__":
    main()
