# Emits the MPI-5.0 standard-ABI face: include/abi/mpi.h (values exactly the standard ABI's),
# include/abi/mpi_legacy.h (MPI-1 names the standard ABI leaves out) and the entry points.
import face
import emit_c
from render import render

CONFIG = face.FaceConfig(prefix='af', value='abi', pointer_classes=set(face.HANDLE_CTYPE) - {'keyval'},
                         header='aface.h')


def legacy_prototypes(spec):
    import cdecl
    return [cdecl.c_prototype(p, n, large) for p in spec.procedures if p.in_c and not p.in_standard_abi
            for n, large in p.c_variants()]


def emit(spec):
    files = face.emit_face(spec, CONFIG, 'abi')
    consts = [c for c in emit_c.constants(spec, 'abi')
              if next(x for x in spec.constants if x.name == c[0]).in_standard_abi]
    typedefs = emit_c.callback_typedefs(spec, 'abi')
    legacy_typedefs = [t for t in emit_c.callback_typedefs(spec, 'mpich') if t not in typedefs]
    files['include/abi/mpi.h'] = render('mpi_abi.h.j2', constants=consts, typedefs=typedefs,
                                        protos=emit_c.prototypes(spec, 'abi'), handles=face.HANDLE_CTYPE)
    files['include/abi/mpi_legacy.h'] = render('mpi_legacy.h.j2', typedefs=legacy_typedefs,
                                               protos=legacy_prototypes(spec))
    return files
