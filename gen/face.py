# What the two C faces (MPICH ABI and standard ABI) share: typed handle converters, constant
# maps and entry points, generated from one set of templates with a per-face configuration.
import dataclasses

import cdecl
import convert
import emit_runtime
import model
from render import render

# handle class -> the C type of its handles, its null handle (spec/handles.json, filled by model.load)
HANDLE_CTYPE = model.HANDLE_TABLES['c']
NULL_NAME = model.HANDLE_TABLES['null']


@dataclasses.dataclass
class FaceConfig:
    prefix: str           # 'cf' (MPICH ABI) or 'af' (standard ABI)
    value: str            # which spec value the face uses: 'mpich' or 'abi'
    pointer_classes: set  # handle classes represented as pointers in this face
    header: str           # the face's internal header the generated C includes
    # a backend of the standard-ABI face: the rt side of each map is the standard ABI's value
    # given to the user, so an error class's standard_class applies to it (backend -> user)
    backend: bool = False


def face_value(c, face):
    return getattr(c, face.value)


def maps(spec, face):
    """name -> (members [(face value, rt value, name)], kind) for every map a kind uses."""
    used = {k.map for k in spec.kinds.values() if k.map and k.map not in model.POINTER_MAPS} | \
        {c.attr_value_map for c in spec.constants if c.attr_value_map}
    by_name = {c.name: c for c in spec.constants}
    out = {}
    for m in sorted(used):
        kind, _, cat = m.partition(':')
        if kind in model.VALUE_MAPS - {'enum'}:  # no constant category: the constants' value_maps say
            members = [c for c in spec.constants if kind in c.value_maps]
        elif kind == 'error_code':
            members = spec.constants_in('ERROR_CLASSES')
        elif kind == 'bits' and any(cat in c.bits_of for c in spec.constants):
            members = [c for c in spec.constants if cat in c.bits_of and isinstance(c.abi, int)]
        else:
            members = [c for c in spec.constants_in(cat) if isinstance(c.abi, int)]
            if kind == 'enum':
                members += [c for c in spec.constants if 'enum' in c.value_maps]
        pairs = [(face_value(c, face), c.abi, c.name) for c in members
                 if isinstance(face_value(c, face), int) and isinstance(c.abi, int)]
        # error classes outside the standard ABI (spec: standard_class) reach a user of the
        # standard ABI as that standard class, one way only: nothing gives them to the face
        std = [(c, by_name[c.standard_class].abi) for c in members if kind == 'error_code' and c.standard_class]
        out_only, in_only = [], []
        if face.value == 'abi':
            out_only = [(s, c.abi, c.name) for c, s in std]
            pairs = [p for p in pairs if p[2] not in {c.name for c, _ in std}]
        elif face.backend:
            in_only = [(face_value(c, face), s, c.name) for c, s in std if isinstance(face_value(c, face), int)]
        fname = map_fname(m)
        face_values = {f for f, _, _ in pairs}
        # the runtime's special values that are not this face's: a user value equal to one
        # must not pass through unmapped and take the runtime's meaning (MPICH tag -2 would
        # become MPI_ANY_TAG): it maps to INT_MIN, which no check accepts
        rt_only = sorted({(r, n) for f, r, n in pairs if r not in face_values})
        # and the other way (a standard-ABI backend's in direction): the face's special values
        # that are not the runtime's (Open MPI's MPI_PROC_NULL -2 is no standard rank)
        rt_values = {r for _, r, _ in pairs}
        face_only = sorted({(f, n) for f, r, n in pairs if f not in rt_values})
        # a map that is the identity but for those one-way pairs: only they need a case
        both = all(f == r for f, r, _ in pairs)
        out[fname] = {'kind': kind, 'pairs': pairs + out_only + in_only,
                      'identity': both and not out_only and not in_only, 'identity_in': both and not in_only,
                      'pairs_in': _unique(in_only + ([] if both else pairs), 0),
                      'pairs_out': _unique(out_only + ([] if both else pairs), 1),
                      'rt_only': _unique(rt_only, 0), 'face_only': _unique(face_only, 0),
                      # a bits map: the bits of equal value in the face and the runtime
                      'same_bits': sum({f for f, r, _ in pairs if f == r and f > 0 and not f & (f - 1)})}
    return out


def _unique(pairs, key):
    seen, out = set(), []
    for p in pairs:
        if p[key] not in seen:
            seen.add(p[key])
            out.append(p)
    return out


def builtin_values(spec, face):
    """[(face value, builtin id)] for decoding handles, the same for decoding keyvals (plain
    integers, whose values may equal a handle's), and {builtin id: face value} for encoding."""
    ids = emit_runtime.builtin_id_of(spec)
    keyvals = {e[0] for e in emit_runtime.builtins(spec) if e[1] == 'keyval'}
    nulls = set(null_values(spec, face).values())
    decode, decode_keyval, encode = [], [], {}
    for c in spec.constants:
        if c.name not in ids:
            continue
        v = face_value(c, face)
        table = decode_keyval if ids[c.name] in keyvals else decode
        if not isinstance(v, int) or v in nulls or v in [d[0] for d in table]:
            continue
        table.append((v, ids[c.name]))
        encode.setdefault(ids[c.name], v)
        if face.value == 'mpich' and isinstance(c.mpich_fortran, int) and c.mpich_fortran != v:
            table.append((c.mpich_fortran, ids[c.name]))  # Fortran's own attribute keys
    return decode, decode_keyval, encode


def map_fname(m):
    """The name of the generated functions of map m (a kind's or constant's "map")."""
    kind, _, cat = m.partition(':')
    return ('%s_%s' % (kind, cat.lower())) if cat else kind


def attr_value_maps(spec):
    """[(builtin id, map function name)] of the predefined attributes whose value is mapped."""
    ids = emit_runtime.builtin_id_of(spec)
    return [(ids[c.name], map_fname(c.attr_value_map)) for c in spec.constants if c.attr_value_map]


def perfect_hash(values):
    """(multiplier, shift, slots) such that slot ((uint32_t)v * multiplier) >> shift of a table
    of len(slots) entries holds v's index in values, no two values sharing one: the face finds
    a predefined handle with one multiplication and one comparison."""
    n = max(len(values), 1)
    for bits in range(max(n - 1, 1).bit_length() + 1, 17):
        for mult in (0x9E3779B1, 0x85EBCA6B, 0xC2B2AE35, 0x27D4EB2F, 0x165667B1, 0xD3A2646C | 1, 0xFD7046C5, 0xB55A4F09):
            slots = [None] * (1 << bits)
            for i, v in enumerate(values):
                s = ((v & 0xFFFFFFFF) * mult & 0xFFFFFFFF) >> (32 - bits)
                if slots[s] is not None:
                    break
                slots[s] = i
            else:
                return mult, 32 - bits, slots
    raise ValueError('no perfect hash for %d predefined handle values' % n)


def null_values(spec, face):
    by_name = {c.name: c for c in spec.constants}
    return {h: face_value(by_name[n], face) for h, n in NULL_NAME.items()}


def emit_face(spec, face, outdir):
    procs = [p for p in spec.procedures if not cdecl.face_manual(p)]
    funcs = []
    for p in procs:
        for name, large in p.c_variants():
            b = convert.body(p, large, face.prefix)
            funcs.append({'name': name, 'proc': p, 'proto': cdecl.c_prototype(p, name, large, 'P'),
                          'ret': cdecl.c_return(p), 'body': b,
                          # the _c form enters rt_<Name>_c, which names it when the runtime lacks the procedure
                          'rt_call': 'rt_%s%s(%s)' % (p.short, '_c' if large else '', ', '.join(b.args)),
                          'before_init': p.before_init,
                          'args': [q.name for q in p.c_params(large) if q.kind.cls != 'varargs']})
    decode, decode_keyval, encode = builtin_values(spec, face)
    mult, shift, slots = perfect_hash([v for v, _ in decode])
    kv_mult, kv_shift, kv_slots = perfect_hash([v for v, _ in decode_keyval])
    cls_of = {e[0]: cdecl.RT_CLASS[e[1]] for e in emit_runtime.builtins(spec)}
    ctx = dict(hash_mult=mult, hash_shift=shift,
               hash_slots=[decode[i] + (cls_of[decode[i][1]],) if i is not None else None for i in slots],
               kv_hash_mult=kv_mult, kv_hash_shift=kv_shift,
               kv_hash_slots=[decode_keyval[i] if i is not None else None for i in kv_slots],
               F=face.prefix, face=face, attr_maps=attr_value_maps(spec), classes=cdecl.RT_HANDLE_TYPE, ctypes=HANDLE_CTYPE,
               rt_class=cdecl.RT_CLASS, handle_err=convert.handle_err(), maps=maps(spec, face),
               decode=decode, encode=encode, nulls=null_values(spec, face), header=face.header,
               pointer_classes=face.pointer_classes,
               # the runtime classes that have predefined objects (null handles aside)
               builtin_classes={cls_of[i] for _, i in decode})
    files = {'%s/conv.h' % outdir: render('face_conv.h.j2', **ctx),
             '%s/tables.c' % outdir: render('face_tables.c.j2', **ctx)}
    chapters = sorted({f['proc'].chapter for f in funcs})
    for chap in chapters:
        files['%s/entry_%s.c' % (outdir, chap)] = render(
            'face_entry.c.j2', funcs=[f for f in funcs if f['proc'].chapter == chap], chapter=chap, **ctx)
    return files
