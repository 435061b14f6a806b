# Emits data the tests compare against: programs that print every constant (built against
# our headers and MPICH's), the list of symbols each library must export, and our
# prototypes for a compile-time check against MPICH's mpi_proto.h.
import cdecl
import emit_c
import emit_fortran
from render import render



def _printable(c, value):
    return value is not None and not isinstance(value, dict) and c.c_type is not None


def emit(spec):
    mpich = [c.name for c in spec.constants if _printable(c, c.mpich) and not c.mpich_assigned
             and not c.mpich_value_unused]
    abi = [(c.name, c.abi) for c in spec.constants if c.in_standard_abi and _printable(c, c.abi)]
    ompi = [(c.name, c.openmpi) for c in spec.constants if _printable(c, c.openmpi)]
    ompi_syms = [(c.name, c.openmpi['symbol']) for c in spec.constants if isinstance(c.openmpi, dict)]
    c_syms, abi_syms, f_syms = [], [], []
    for p in spec.procedures:
        if p.in_c:
            for name, _ in p.c_variants():
                c_syms += [name, 'P' + name]
                abi_syms += [name, 'P' + name]
        if p.in_fortran and (p.in_c or p.hand_written == 'fortran') and p.hand_written != 'all':
            lo, up = p.name.lower(), p.name.upper()
            for pre_lo, pre_up in (('', ''), ('p', 'P')):
                f_syms += [pre_lo + lo + '_', pre_lo + lo + '__', pre_lo + lo, pre_up + up]
    protos = [cdecl.c_prototype(p, n, large) for p in spec.procedures if p.in_c and not cdecl.face_manual(p)
              for n, large in p.c_variants()]
    return {
        'tests/print_constants_mpich.c': render('print_constants.c.j2', names=mpich, header='mpi.h'),
        'tests/print_constants_abi.c': render('print_constants.c.j2', names=[n for n, _ in abi], header='mpi.h'),
        'tests/constants_abi.expected': '\n'.join('%s %d' % (n, v) for n, v in abi) + '\n',
        'tests/print_constants_openmpi.c': render('print_constants_openmpi.c.j2', names=[n for n, _ in ompi],
                                                  symbols=ompi_syms),
        'tests/constants_openmpi.expected': ''.join('%s %d\n' % (n, v) for n, v in ompi) +
                                            ''.join('%s &%s\n' % (n, s) for n, s in ompi_syms),
        'tests/not_compared.txt': ''.join('%s %s\n' % (c.name, c.mpich_value_unused) for c in spec.constants
                                          if c.mpich_value_unused),
        # beside the procedures: what Debian MPICH 4.0.2's libmpi exports and programs link (a
        # fact of MPICH's ABI the spec has no field for)
        'tests/exports_c.txt': '\n'.join(sorted(set(c_syms) | {'MPIR_Dup_fn', 'MPIX_GPU_query_support', 'PMPIX_GPU_query_support',
                                                              'MPIX_Query_cuda_support', 'PMPIX_Query_cuda_support',
                                                              'MPIX_Query_ze_support', 'PMPIX_Query_ze_support',
                                                              'MPIX_Query_hip_support', 'PMPIX_Query_hip_support',
                                                              'MPI_UNWEIGHTED', 'MPI_WEIGHTS_EMPTY',
                                                              'MPI_F_STATUS_IGNORE', 'MPI_F_STATUSES_IGNORE'})) + '\n',
        'tests/exports_abi.txt': '\n'.join(sorted(set(abi_syms))) + '\n',
        'tests/exports_fortran.txt': '\n'.join(sorted(set(f_syms))) + '\n',
        'tests/protos_vs_mpich.c': render('protos_vs_mpich.c.j2', protos=protos),
    }
