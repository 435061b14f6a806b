#!/usr/bin/env python3
# Developer tool (not part of build or test): checks spec/ against the MPI Forum's reference
# data in ../shared/reference and Debian MPICH's headers; reports anything missing. Exit 1 if so.
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, 'gen'))
import model  # noqa: E402

REF = os.path.join(ROOT, '..', 'shared', 'reference')
MPICH_INC = '/usr/include/x86_64-linux-gnu/mpich'
REMOVED_IN_3 = {'MPI_Address', 'MPI_Errhandler_create', 'MPI_Errhandler_get', 'MPI_Errhandler_set',
                'MPI_Type_extent', 'MPI_Type_hindexed', 'MPI_Type_hvector', 'MPI_Type_lb', 'MPI_Type_struct',
                'MPI_Type_ub'}


def main():
    spec = model.load(os.path.join(ROOT, 'spec'))
    apis = json.load(open(os.path.join(REF, 'mpi-standard-5.0-apis.json')))
    consts = json.load(open(os.path.join(REF, 'mpi-standard-5.0-abi.json')))['constants']
    procs = {p.name: p for p in spec.procedures}
    cbs = {c.name for c in spec.callbacks} | {p['name'] for p in spec.predefined_callbacks}
    problems = []
    ref_procs = 0
    for e in apis.values():
        ref_procs += 1
        n = e['name']
        if n not in procs and n not in cbs:
            problems.append('procedure %s is in the reference data but not in spec/' % n)
        elif n in procs:
            want = [p['name'] for p in e['parameters'] if p['kind'] != 'ERROR_CODE' or 'c_parameter' not in p['suppress']]
            have = [p.name for p in procs[n].params]
            if want != have:
                problems.append('%s: parameters %s, reference has %s' % (n, have, want))
    for n in REMOVED_IN_3:
        if n not in procs or procs[n].removed_in != '3.0':
            problems.append('%s must be in spec/ with removed_in 3.0' % n)
    spec_consts = {c.name: c for c in spec.constants}
    for c in consts.values():
        s = spec_consts.get(c['name'])
        if s is None:
            problems.append('constant %s is in the reference data but not in spec/' % c['name'])
        elif s.abi != c['abi_value'] and c['abi_value'] is not None:
            problems.append('constant %s: standard-ABI value %r in spec/, %r in the reference' % (c['name'], s.abi, c['abi_value']))
    if os.path.isdir(MPICH_INC):
        hdr = open(os.path.join(MPICH_INC, 'mpi.h')).read()
        for n in sorted(set(re.findall(r'#\s*define\s+(MPI_[A-Z0-9_]+)\b(?!\()', hdr))):
            if n not in spec_consts and n not in ('MPI_INCLUDED', 'MPI_FILE_DEFINED', 'MPI_AINT_FMT_DEC_SPEC',
                                                  'MPI_AINT_FMT_HEX_SPEC'):
                problems.append('MPICH defines %s, spec/ does not' % n)
    for p in problems:
        print(p)
    print('procedures: %d in spec/ (reference: %d entries incl. %d callbacks and predefined functions; '
          'plus %d removed in MPI-3.0); constants: %d in spec/, %d in the reference; %d problems'
          % (len(procs), ref_procs, len(cbs), len(REMOVED_IN_3), len(spec_consts), len(consts), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
