#!/usr/bin/env python3
# The generator: spec/ -> build/gen/. load -> validate -> model -> emitters -> thin templates.
# Usage: generate.py SPEC_DIR OUT_DIR. Writes only into OUT_DIR; output is deterministic.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402
import emit_runtime  # noqa: E402
import emit_c  # noqa: E402
import emit_fortran  # noqa: E402
import emit_f08  # noqa: E402
import emit_mpichfort  # noqa: E402
import emit_abi  # noqa: E402
import emit_backend  # noqa: E402
import emit_testdata  # noqa: E402
import emit_badinput  # noqa: E402


def write_all(out_dir, files):
    """Writes each file, leaving unchanged ones untouched so make does not rebuild them,
    and removes generated files the spec no longer produces."""
    for root, _, names in os.walk(out_dir):
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), out_dir)
            if rel not in files and not n.startswith('.'):
                os.remove(os.path.join(root, n))
    for rel, text in sorted(files.items()):
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            with open(path) as f:
                if f.read() == text:
                    continue
        except OSError:
            pass
        with open(path + '.tmp', 'w') as f:
            f.write(text)
        os.replace(path + '.tmp', path)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write('usage: generate.py SPEC_DIR OUT_DIR\n')
        return 2
    try:
        spec = model.load(argv[1])
    except model.SpecError as e:
        sys.stderr.write('spec error: %s\n' % e)
        return 1
    files = {}
    for emitter in (emit_runtime, emit_c, emit_fortran, emit_f08, emit_mpichfort, emit_abi, emit_backend, emit_testdata):
        files.update(emitter.emit(spec))
    files.update(emit_badinput.emit(spec, argv[1]))
    write_all(argv[2], files)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
