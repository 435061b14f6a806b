#!/usr/bin/env python3
# report.py — side-by-side table of benchmark results (Switchyard first, then the others,
# with Switchyard/other ratios) and a PNG plot through gnuplot. Each implementation's runs are
# OUT/<bench>.<impl>.<r>.txt (r = 1, 2, ...; bench/run.sh alternates the implementations);
# a figure is the median of its runs, and its spread, (max - min) / median in %, shows how
# noisy the machine was. OUT/<bench>.<impl>.txt (one run, older layout) is read when there
# are no numbered runs; the medians are written to it otherwise.
# Usage: report.py OUT BENCH IMPL...
import os
import re
import statistics
import subprocess
import sys


def load(path):
    rows = {}
    for line in open(path):
        fields = line.split()
        if len(fields) != 3:  # a blank line that a launcher left as bench/run.sh stopped its job
            continue
        name, size, value = fields
        rows[(name, int(size))] = float(value)
    return rows


def load_runs(out, name, impl):
    """{(metric, size): [value of each run]} from OUT/<name>.<impl>.<r>.txt."""
    pat = re.compile(r'^%s\.%s\.(\d+)\.txt$' % (re.escape(name), re.escape(impl)))
    files = sorted((int(m.group(1)), f) for f in os.listdir(out) for m in [pat.match(f)] if m)
    if not files:
        return {k: [v] for k, v in load(os.path.join(out, '%s.%s.txt' % (name, impl))).items()}
    runs = {}
    for _, f in files:
        for k, v in load(os.path.join(out, f)).items():
            runs.setdefault(k, []).append(v)
    with open(os.path.join(out, '%s.%s.txt' % (name, impl)), 'w') as f:
        for (metric, size), vs in sorted(runs.items()):
            f.write('%s %d %f\n' % (metric, size, statistics.median(vs)))
    return runs


def main(out, name, impls):
    runs = {i: load_runs(out, name, i) for i in impls}
    data = {i: {k: statistics.median(vs) for k, vs in runs[i].items()} for i in impls}
    nruns = {i: max([len(vs) for vs in runs[i].values()] or [0]) for i in impls}
    keys = sorted(set().union(*data.values()), key=lambda k: (k[0], k[1]))
    w = max([12] + [len(i) + 2 for i in impls])
    head = '%-16s %9s' % ('metric', 'size') + ''.join('%*s' % (w, i) for i in impls) + \
        ''.join('%14s' % (impls[0][:6] + '/' + i[:6]) for i in impls[1:]) + \
        ''.join('%14s' % ('spread ' + i[:6]) for i in impls)
    print(head)
    for k in keys:
        vals = [data[i].get(k) for i in impls]
        line = '%-16s %9d' % k + ''.join('%*.3f' % (w, v) if v is not None else '%*s' % (w, '-') for v in vals)
        for v in vals[1:]:
            line += '%14.2f' % (vals[0] / v) if v and vals[0] is not None else '%14s' % '-'
        for i, v in zip(impls, vals):
            vs = runs[i].get(k)
            line += '%13.1f%%' % (100.0 * (max(vs) - min(vs)) / v) if v else '%14s' % '-'
        print(line)
    print('(median of %s runs; spread: (max - min) / median of the runs, a ratio within the '
          'spread is noise)' % '/'.join(str(nruns[i]) for i in impls))
    if name == 'stress':
        print('(stress: size is the number of ranks; wall seconds: lower is better, ratio < 1 '
              'means %s is faster)' % impls[0])
    elif name != 'footprint':
        print('(latency and ns: lower is better, ratio < 1 means %s is faster; bandwidth and '
              'message rate: higher is better, ratio > 1 means %s is faster)' % (impls[0], impls[0]))
    else:
        print('(footprint: size is the number of ranks; seconds and MiB: lower is better, ratio < 1 '
              'means %s starts faster or uses less memory; "-": no run gave the figure)' % impls[0])
    plot(out, name, impls, data)


def plot(out, name, impls, data):
    try:
        subprocess.run(['gnuplot', '--version'], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        print('gnuplot not found: no plot written')
        return
    every = set().union(*data.values())
    metrics = sorted({m for (m, _) in every if sum(1 for (m2, _) in every if m2 == m) > 1})
    have = {m: [i for i in impls if any(m2 == m and v > 0 for (m2, _), v in data[i].items())]
            for m in metrics}
    metrics = [m for m in metrics if have[m]]
    if not metrics:
        return plot_bars(out, name, impls, data)
    for metric in metrics:
        for i in impls:
            with open(os.path.join(out, '%s.%s.dat' % (i, metric)), 'w') as f:
                for (m, size), v in sorted(data[i].items()):
                    if m == metric:
                        f.write('%d %f\n' % (max(size, 1), v))
    png = os.path.join(out, name + '.png')
    script = ['set terminal png noenhanced size %d,500' % (600 * len(metrics)), 'set output "%s"' % png,
              'set multiplot layout 1,%d' % len(metrics),
              'set logscale x 2', 'set logscale y', 'set xlabel "message size (bytes)"', 'set key left top',
              'set xtics ("1" 1, "32" 32, "1K" 1024, "32K" 32768, "1M" 1048576, "4M" 4194304)']
    if name in ('footprint', 'stress'):
        script += ['set xlabel "ranks"', 'set xrange [*:*] noextend', 'set offsets graph 0.05, graph 0.05', 'set xtics (%s)' % ', '.join(
            '"%d" %d' % (n, n) for n in sorted({n for (_, n) in every}))]
    for metric in metrics:
        script.append('set title "%s"' % metric.replace('_', ' '))
        script.append('set ylabel "%s"' % unit(metric))
        script.append('plot ' + ', '.join('"%s" with linespoints title "%s"' % (
            os.path.join(out, '%s.%s.dat' % (i, metric)), i) for i in have[metric]))
    subprocess.run(['gnuplot'], input='\n'.join(script) + '\n', text=True, check=True)
    print('plot: %s' % png)


def unit(metric):
    """The y axis label of a metric, from its name's suffix."""
    for suffix, label in (('_us', 'microseconds'), ('_ns', 'nanoseconds'), ('_MBps', 'MB/s'),
                          ('_Mps', 'million messages/s'), ('_mib', 'MiB'), ('_s', 'seconds')):
        if metric.endswith(suffix):
            return label
    return metric


def plot_bars(out, name, impls, data):
    """Figures of one size each (e.g. bench/percall.c's ns per call): one group of bars per
    metric, one bar per implementation, all metrics in one unit."""
    keys = sorted(set().union(*data.values()))
    if not keys:
        print('nothing to plot')
        return
    dat = os.path.join(out, name + '.bars.dat')
    with open(dat, 'w') as f:
        for k in keys:
            f.write('"%s" %s\n' % (k[0].replace('_', ' '), ' '.join(
                '%f' % data[i][k] if k in data[i] else '?' for i in impls)))
    png = os.path.join(out, name + '.png')
    script = ['set terminal png noenhanced size %d,500' % max(600, 150 * len(keys)), 'set output "%s"' % png,
              'set style data histograms', 'set style histogram clustered', 'set style fill solid 0.8',
              'set boxwidth 0.9', 'set key left top', 'set yrange [0:*]', 'set title "%s"' % name.replace('_', ' '),
              'set xlabel "call"', 'set ylabel "%s"' % unit(keys[0][0]),
              'plot ' + ', '.join('"%s" using %d:xtic(1) title "%s"' % (dat, c + 2, i) for c, i in enumerate(impls))]
    subprocess.run(['gnuplot'], input='\n'.join(script) + '\n', text=True, check=True)
    print('plot: %s' % png)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
