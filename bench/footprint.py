#!/usr/bin/env python3
# footprint.py — one run of the footprint benchmark for one implementation (bench/run.sh calls
# it once per implementation and repeat): launches bench/footprint.c's binary with each rank
# count NP in turn and prints, per NP, rows "METRIC NP VALUE" for bench/report.py:
#   init_s    launch -> the last rank returned from MPI_Init (CLOCK_REALTIME in each rank)
#   wall_s    launch -> the launcher exited (the whole job: init, barrier, allreduce, finalize)
#   shm_mib   size of the job's shared-memory objects: every shared file mapping the ranks hold
#             after the collectives (/dev/shm, SysV, memfd, and files elsewhere such as Open
#             MPI's PMIx store in /tmp), counted once per object at its largest mapped extent
#   shm_used_mib  the same objects' allocated bytes (st_blocks; tmpfs files are sparse): the
#             shared memory the job really touched. Needs CAP_SYS_ADMIN (/proc/PID/map_files);
#             without it the row is left out
#   rss_mib   sum over ranks of VmHWM just before MPI_Finalize (shared pages count in every rank)
#   pss_mib   sum over ranks of Pss at the same point (shared pages split between their users)
# The launcher's own processes (mpiexec, Hydra's proxy, mpirun) are in wall_s but not in the
# memory figures. A run that fails, times out (FOOTPRINT_TIMEOUT seconds, default 240) or would
# not fit in /dev/shm or memory prints no rows for that NP and says why on stderr; the job's
# processes (its session, and anything running BINARY) are killed and /dev/shm files it left are
# removed when they are provably its own: named after a Switchyard job id the ranks wrote
# (DIR/job.PID, bench/footprint.c), as mpiexec's own sweep matches them. Anything else that
# appeared meanwhile (another job's, MPICH's or Open MPI's, whose names carry no id of ours) is
# only reported, never removed. BENCH_LOCK=FILE holds flock(FILE) for the whole call.
# Usage: footprint.py IMPL BINARY "NP..." LAUNCHER [ARG...]   (the launcher gets -n NP BINARY DIR)
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

SHM = '/dev/shm'
MIB = 1 << 20
RESERVE = 2 << 30      # a run starts only if this much is left beside its estimate ...
FLOOR = 1 << 30        # ... and is killed if /dev/shm or the memory ever has less than this


def meminfo():
    kib = {}
    for line in open('/proc/meminfo'):
        k, v = line.split(':')
        kib[k] = int(v.split()[0])
    return kib


def shm_avail():
    st = os.statvfs(SHM)
    return st.f_bavail * st.f_frsize


def estimate(impl, n):
    """Bytes of shared memory the job may need (Switchyard: n(n-1) rings of up to ~128 KiB on a
    crowded node; the others: a few MiB per rank), to refuse a run that cannot fit."""
    if impl == 'switchyard':
        return n * (n - 1) * (128 << 10) + (16 << 20)
    return n * (8 << 20)


def kill_job(sid, binary):
    """SIGKILL every process of the launcher's session and every process running BINARY."""
    me = os.getpid()
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            stat = open('/proc/%s/stat' % pid).read()
            session = int(stat[stat.rindex(')') + 2:].split()[3])
            try:
                exe = os.readlink('/proc/%s/exe' % pid)
            except OSError:
                exe = ''
            if session == sid or exe == binary:
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass


def job_ids(d):
    """The Switchyard job ids the ranks wrote in DIR/job.PID: at least 16 hex digits, as
    mpiexec's sweep requires before it matches names with one."""
    ids = set()
    for name in os.listdir(d):
        if not name.startswith('job.'):
            continue
        try:
            v = open(os.path.join(d, name)).read().strip()
        except OSError:
            continue
        if len(v) >= 16 and all(c in '0123456789abcdefABCDEF' for c in v):
            ids.add(v)
    return ids


def own_shm(names, ids):
    """The names among NAMES that are provably the job's: 'switchyard-<id>-...' for one of IDS."""
    return [f for f in names if any(f.startswith('switchyard-%s-' % i) for i in ids)]


def read_ranks(d, n):
    """The ranks' reports, or (None, reason)."""
    inits, hwm, pss, objs, used = [], 0, 0, {}, {}
    for r in range(n):
        try:
            lines = open(os.path.join(d, '%d.txt' % r)).read().splitlines()
        except OSError:
            return None, 'rank %d wrote no report' % r
        if not lines or lines[-1] != 'ok':
            return None, 'rank %d: incomplete report or wrong allreduce result' % r
        for line in lines[:-1]:
            f = line.split(None, 4)
            if f[0] == 'init':
                inits.append(float(f[1]))
            elif f[0] == 'hwm':
                hwm += int(f[1])
            elif f[0] == 'pss':
                pss += int(f[1])
            elif f[0] == 'map':
                key = (f[1], f[2])
                objs[key] = max(objs.get(key, 0), int(f[3]))
                used[key] = max(used.get(key, -1), int(f[4].split()[0]))
    unknown = any(v < 0 for v in used.values())
    return (max(inits), hwm, pss, sum(objs.values()), None if unknown else sum(used.values())), None


def run(impl, binary, n, launcher, timeout):
    need = estimate(impl, n)
    avail = min(shm_avail(), meminfo()['MemAvailable'] * 1024)
    if need + RESERVE > avail:
        return None, ('needs about %.1f GiB of shared memory (+%d GiB reserve), %.1f GiB available'
                      % (need / 2**30, RESERVE >> 30, avail / 2**30))
    d = tempfile.mkdtemp(prefix='footprint.')
    before = set(os.listdir(SHM))
    err = open(os.path.join(d, 'stderr'), 'w+')
    why, done = [], threading.Event()

    def sample():  # every 20 ms: the job is killed before /dev/shm or the memory runs out
        while not done.wait(0.02):
            if min(shm_avail(), meminfo()['MemAvailable'] * 1024) < FLOOR:
                why.append('killed: less than %d GiB of /dev/shm or memory left' % (FLOOR >> 30))
                kill_job(p.pid, binary)
                return
    t0 = time.time()
    p = subprocess.Popen(launcher + ['-n', str(n), binary, d], stdin=subprocess.DEVNULL,
                         stdout=err, stderr=err, start_new_session=True)
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        rc = p.wait(timeout)
    except subprocess.TimeoutExpired:
        rc = None
        why.append('timed out after %g s' % timeout)
    t = time.time()
    done.set()
    sampler.join()
    why = why[0] if why else None
    kill_job(p.pid, binary)
    if rc is None:
        p.wait()
    appeared = sorted(set(os.listdir(SHM)) - before)
    left = own_shm(appeared, job_ids(d))
    for f in left:
        try:
            os.unlink(os.path.join(SHM, f))
        except OSError:
            pass
    if left:
        print('footprint %s -n %d: removed %d file(s) the job left in %s (%s%s)' % (
            impl, n, len(left), SHM, ', '.join(left[:3]), ', ...' if len(left) > 3 else ''),
            file=sys.stderr)
    kept = [f for f in appeared if f not in left]
    if kept:
        print('footprint %s -n %d: kept %d file(s) that appeared in %s but are not provably the '
              "job's (%s%s)" % (impl, n, len(kept), SHM, ', '.join(kept[:3]), ', ...' if len(kept) > 3 else ''),
              file=sys.stderr)
    if why is None and rc != 0:
        err.seek(0)
        tail = err.read().strip().splitlines()[-3:]
        why = 'launcher exited with %d%s' % (rc, (': ' + ' | '.join(tail)) if tail else '')
    res = None
    if why is None:
        res, why = read_ranks(d, n)
    err.close()
    shutil.rmtree(d, ignore_errors=True)
    if res is None:
        return None, why
    init, hwm, pss, objs, used = res
    rows = [('init_s', init - t0), ('wall_s', t - t0), ('shm_mib', objs / MIB)]
    if used is None:
        print('footprint %s -n %d: no shm_used_mib: /proc/PID/map_files needs CAP_SYS_ADMIN'
              % (impl, n), file=sys.stderr)
    else:
        rows.append(('shm_used_mib', used / MIB))
    return rows + [('rss_mib', hwm / 1024), ('pss_mib', pss / 1024)], None


def main():
    impl, binary, nps, launcher = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3], sys.argv[4:]
    timeout = float(os.environ.get('FOOTPRINT_TIMEOUT', '240'))
    lock = os.environ.get('BENCH_LOCK')
    if lock:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        fcntl.flock(fd, fcntl.LOCK_EX)
    for n in map(int, nps.split()):
        rows, why = run(impl, binary, n, launcher, timeout)
        if rows is None:
            print('footprint %s -n %d: no figures: %s' % (impl, n, why), file=sys.stderr)
            continue
        for name, v in rows:
            print('%s %d %f' % (name, n, v))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
