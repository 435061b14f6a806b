#!/usr/bin/env python3
# Switchyard test runner: runs the tests listed in tests/testlist, each in its
# own process group with a timeout; each result line reads "PASS [i/N] name [face] np=K (T s)",
# and the last one "N passed, M failed[, K skipped]". Standard-ABI tests run once per backend
# (faces abi and fabi, --backends; "[abi/mpich]": the same binary on MPICH through SWITCHYARD_ABI_BACKEND,
# "[abi/openmpi]": on Open MPI, under mpirun.openmpi). --launcher, --set and --spread run the
# multi-process tests another way (over TCP, across network namespaces: tcp_forced, tcp_netns).
import argparse
import concurrent.futures
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FACES = ("c", "fortran", "abi", "fabi", "sh")
ABI_FACES = ("abi", "fabi")  # standard-ABI binaries: they also run on the backends
SKIP_EXIT = 77  # a test that cannot run here exits 77, its reason on the last stderr line
# Standard-ABI backends other than Switchyard's runtime: the library each needs
BACKEND_LIBS = {"mpich": "/usr/lib/x86_64-linux-gnu/libmpich.so.12",
                "openmpi": "/usr/lib/x86_64-linux-gnu/libmpi.so.40"}
DEFAULT_BACKENDS = ("mpich", "openmpi")
# Open MPI's programs run under its own mpirun (it does not speak PMI-1); its default one-sided
# component needs hardware this machine lacks, so osc/pt2pt
OPENMPI_RUN = ["mpirun.openmpi", "--oversubscribe", "--mca", "osc", "pt2pt", "--mca", "btl", "self,vader",
               "-x", "SWITCHYARD_ABI_BACKEND"]
OPENMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


class Test:
    def __init__(self, name, nprocs, face, env, timeout, expect_exit, expect_stderr, skip_on,
                 one_node=None):
        self.name, self.nprocs, self.face = name, nprocs, face
        self.env, self.timeout = env, timeout
        self.expect_exit, self.expect_stderr = expect_exit, expect_stderr
        self.skip_on = skip_on  # {backend: why it does not run there}
        self.one_node = one_node  # why it needs all its ranks on one host, or None
        self.backend = "switchyard"

    def on(self, backend):
        """This standard-ABI test, run on another backend."""
        env = dict(self.env, SWITCHYARD_ABI_BACKEND=backend, **(OPENMPI_ENV if backend == "openmpi" else {}))
        t = Test(self.name, self.nprocs, self.face, env,
                 self.timeout, self.expect_exit, self.expect_stderr, self.skip_on, self.one_node)
        t.backend = backend
        return t


def parse_testlist(path):
    """Return the list of Test objects in path; exit 2 on a malformed line."""
    tests = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            def bad(msg):
                sys.exit(f"{path}:{lineno}: {msg}")
            if len(words) < 3:
                bad("expected: name nprocs face [KEY=VALUE ...]")
            name, nprocs, face = words[:3]
            if not nprocs.isdigit() or int(nprocs) < 1:
                bad(f"bad nprocs '{nprocs}'")
            if face not in FACES:
                bad(f"bad face '{face}' (one of {', '.join(FACES)})")
            env, timeout, expect_exit, expect_stderr, skip_on, one_node = {}, 60.0, 0, [], {}, None
            for kv in words[3:]:
                key, sep, value = kv.partition("=")
                if not sep or not key:
                    bad(f"expected KEY=VALUE, got '{kv}'")
                try:
                    if key == "timeout":
                        timeout = float(value)
                    elif key == "expect_exit":
                        expect_exit = int(value)
                    elif key == "expect_stderr":
                        expect_stderr.append(value.replace("%20", " "))
                    elif key.startswith("skip_"):  # skip_mpich=WHY: not run on that backend
                        if face not in ABI_FACES or key[5:] not in BACKEND_LIBS:
                            bad(f"'{key}' needs a standard-ABI face and a backend ({', '.join(BACKEND_LIBS)})")
                        skip_on[key[5:]] = value.replace("%20", " ")
                    elif key == "one_node":  # one_node=WHY: skipped under --spread
                        one_node = value.replace("%20", " ")
                    else:
                        env[key] = value
                except ValueError:
                    bad(f"bad value in '{kv}'")
            tests.append(Test(name, int(nprocs), face, env, timeout,
                              expect_exit, expect_stderr, skip_on, one_node))
    return tests


def kill_group(proc):
    """End the test's process group: SIGTERM, then SIGKILL what is left 2 s later."""
    def signal_group(sig):  # False once the group is empty
        proc.poll()  # reap the leader so that it does not count
        try:
            os.killpg(proc.pid, sig)
            return True
        except ProcessLookupError:
            return False

    if signal_group(signal.SIGTERM):
        deadline = time.monotonic() + 2
        while signal_group(0) and time.monotonic() < deadline:
            time.sleep(0.05)
        signal_group(signal.SIGKILL)
    proc.wait()


def command_for(test, build, launcher=None):
    """Return (argv, None) or (None, (status, reason)) when it cannot run; launcher: the
    command that replaces Switchyard's mpiexec for multi-process tests."""
    if test.face == "sh":
        prog = os.path.join(ROOT, "tests", "sh", test.name + ".sh")
        if not os.path.isfile(prog):
            return None, ("FAIL", f"not found: tests/sh/{test.name}.sh")
        argv = ["bash", prog]
    else:
        prog = os.path.join(build, "tests", test.face, test.name)
        if not os.path.isfile(prog):
            return None, ("FAIL", "not built")
        argv = [prog]
    if test.backend == "openmpi":
        return OPENMPI_RUN + ["-n", str(test.nprocs)] + argv, None
    if test.nprocs > 1 and launcher:
        return launcher + ["-n", str(test.nprocs)] + argv, None
    if test.nprocs > 1:
        mpiexec = os.path.join(build, "bin", "mpiexec")
        if not os.path.isfile(mpiexec):
            return None, ("SKIP", "needs mpiexec (not built yet)")
        argv = [mpiexec, "-n", str(test.nprocs)] + argv
    return argv, None


def tail(data, n=20):
    text = data.decode("utf-8", "replace")
    return ["    " + line for line in text.splitlines()[-n:]]


def sanitized(build):
    """True when the tests run with the sanitizer runtimes (make check-sanitize): preloaded, or
    needed by the build's instrumented libraries."""
    if os.environ.get("SWITCHYARD_TEST_PRELOAD", "").strip():
        return True
    try:
        with open(os.path.join(build, "lib", "libmpi_abi.so.1"), "rb") as f:
            data = f.read()
    except OSError:
        return False
    return b"libasan.so" in data or b"libubsan.so" in data


# The backends are loaded with RTLD_DEEPBIND (abi/backend.c: it keeps their own MPI_* calls off
# libmpi_abi's exports), which the sanitizer runtimes refuse; without it isolation would not hold.
SANITIZED_BACKEND_SKIP = "RTLD_DEEPBIND (the backend's dlopen) cannot run under the sanitizers"


def run_test(test, build, i, n, san=False, opts=None):
    """Run test number i of n (san: the build is sanitized; opts: the command line's --launcher,
    --set and --spread); return (status, text of its report lines)."""
    face = test.face if test.backend == "switchyard" else f"{test.face}/{test.backend}"
    label = f"[{i}/{n}] {test.name} [{face}] np={test.nprocs}"
    if test.backend in test.skip_on:
        return "SKIP", f"SKIP {label}: {test.skip_on[test.backend]}"
    if san and test.backend != "switchyard":
        return "SKIP", f"SKIP {label}: {SANITIZED_BACKEND_SKIP}"
    if opts and opts.spread and test.one_node and test.nprocs > 1:
        return "SKIP", f"SKIP {label}: {test.one_node}"
    launcher = shlex.split(opts.launcher) if opts and opts.launcher else None
    argv, early = command_for(test, build, launcher)
    if early:
        status, reason = early
        return status, f"{status} {label}: {reason}"
    env = dict(os.environ)
    env["BUILD"] = build
    env.update(kv.split("=", 1) for kv in (opts.set if opts and opts.set else []))
    env.update(test.env)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        try:
            proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=err, start_new_session=True)
        except OSError as e:
            return "FAIL", f"FAIL {label}: cannot run: {e}"
        try:
            proc.wait(timeout=test.timeout * getattr(opts, "timeout_scale", 1))
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        kill_group(proc)  # also reaps anything the test left behind
        elapsed = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    rc = proc.returncode
    if rc == SKIP_EXIT and not timed_out and test.expect_exit != SKIP_EXIT:
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        return "SKIP", f"SKIP {label}: {lines[-1] if lines else 'skipped'}"
    if timed_out:
        reason = f"timeout after {test.timeout * getattr(opts, 'timeout_scale', 1):g}s"
    elif rc < 0:
        try:
            reason = f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            reason = f"killed by signal {-rc}"
    elif rc != test.expect_exit:
        reason = f"exit {rc}"
        if test.expect_exit:
            reason += f" (expected {test.expect_exit})"
    else:
        text = stderr.decode("utf-8", "replace")
        missing = [s for s in test.expect_stderr if s not in text]
        if not missing:
            return "PASS", f"PASS {label} ({elapsed:.2f}s)"
        reason = "stderr lacks " + ", ".join(repr(s) for s in missing)
    lines = [f"FAIL {label}: {reason}"] + tail(stdout + stderr)
    return "FAIL", "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="Run the Switchyard tests.")
    ap.add_argument("-j", type=int, default=2, metavar="N", help="parallel jobs (2)")
    ap.add_argument("--list", action="store_true", help="list the tests, run none")
    ap.add_argument("--build", metavar="DIR",
                    help="build directory holding tests/<face>/ and bin/ (default: build)")
    ap.add_argument("--face", action="append", choices=FACES,
                    help="run only tests of this face (repeatable)")
    ap.add_argument("--backends", metavar="LIST",
                    help="standard-ABI backends besides Switchyard's runtime, comma-separated, of "
                         + ", ".join(BACKEND_LIBS) + " (default: " + ", ".join(DEFAULT_BACKENDS)
                         + " if installed; 'none')")
    ap.add_argument("--min-np", type=int, default=1, metavar="N",
                    help="only the tests of at least N processes")
    ap.add_argument("--launcher", metavar="CMD",
                    help="start multi-process tests with CMD -n N PROGRAM instead of Switchyard's "
                         "mpiexec (e.g. mpiexec.hydra with its options)")
    ap.add_argument("--set", action="append", metavar="NAME=VALUE",
                    help="set NAME=VALUE in every test's environment (the testlist's settings win)")
    ap.add_argument("--spread", action="store_true",
                    help="the launcher spreads the ranks over hosts: skip the tests marked one_node")
    ap.add_argument("--timeout-scale", type=float, default=1, metavar="F",
                    help="multiply every test's timeout by F (sanitizer builds run slower)")
    ap.add_argument("filters", nargs="*", help="run tests whose name contains one")
    args = ap.parse_args()
    for kv in args.set or []:
        if "=" not in kv or not kv.split("=", 1)[0]:
            ap.error(f"--set needs NAME=VALUE, got '{kv}'")
    if args.backends is None:
        backends = [b for b, lib in BACKEND_LIBS.items() if os.path.exists(lib) and b in DEFAULT_BACKENDS]
    else:
        backends = [b for b in args.backends.split(",") if b and b != "none"]
        for b in backends:
            if b not in BACKEND_LIBS:
                ap.error(f"unknown backend '{b}' (one of {', '.join(BACKEND_LIBS)})")

    build = os.path.abspath(args.build or os.path.join(ROOT, "build"))
    tests = [t for t in parse_testlist(os.path.join(ROOT, "tests", "testlist"))
             if (not args.filters or any(f in t.name for f in args.filters))
             and (not args.face or t.face in args.face) and t.nprocs >= args.min_np]
    tests += [t.on(b) for b in backends for t in tests if t.face in ABI_FACES]
    if args.list:
        for t in tests:
            print(f"{t.name} {t.nprocs} {t.face}" + (f" {t.backend}" if t.backend != "switchyard" else ""))
        return 0

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    san = sanitized(build)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        for status, report in pool.map(lambda it: run_test(it[1], build, it[0], len(tests), san, args),
                                       enumerate(tests, 1)):
            counts[status] += 1
            print(report, flush=True)
    summary = f"{counts['PASS']} passed, {counts['FAIL']} failed"
    if counts["SKIP"]:
        summary += f", {counts['SKIP']} skipped"
    print(summary)
    return 1 if counts["FAIL"] or counts["PASS"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
