#!/usr/bin/env python3
"""Where a wasm module's bytes go: code size per crate (and per module of ours), from the
function names in the module's `name` section. Give it cargo's wasm (before wasm-bindgen and
wasm-opt strip the names): target/wasm32-unknown-unknown/release/kube-bootstrap-lab.wasm.
Usage: scripts/wasm-sizes.py FILE [--ours CRATE] [--top N]"""
import re
import sys
from collections import Counter


def leb(b, i):
    """An unsigned LEB128 at b[i]: (value, next index)."""
    v = shift = 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return v, i


def sections(b):
    i = 8
    while i < len(b):
        sid = b[i]
        size, j = leb(b, i + 1)
        yield sid, b[j:j + size]
        i = j + size


def imported_functions(body):
    n, i = leb(body, 0)
    count = 0
    for _ in range(n):
        for _ in range(2):  # module, name
            ln, i = leb(body, i)
            i += ln
        kind = body[i]
        i += 1
        if kind == 0:
            _, i = leb(body, i)
            count += 1
        elif kind == 1:  # table: reftype, limits
            i += 1
            flags, i = leb(body, i)
            _, i = leb(body, i)
            if flags & 1:
                _, i = leb(body, i)
        elif kind == 2:  # memory: limits
            flags, i = leb(body, i)
            _, i = leb(body, i)
            if flags & 1:
                _, i = leb(body, i)
        elif kind == 3:  # global: type, mut
            i += 2
        elif kind == 4:  # tag
            i += 1
            _, i = leb(body, i)
    return count


def names(body):
    """Function names from a `name` custom section body (after its own name)."""
    out = {}
    i = 0
    while i < len(body):
        sub = body[i]
        size, i = leb(body, i + 1)
        end = i + size
        if sub == 1:
            n, j = leb(body, i)
            for _ in range(n):
                idx, j = leb(body, j)
                ln, j = leb(body, j)
                out[idx] = body[j:j + ln].decode('utf-8', 'replace')
                j += ln
        i = end
    return out


V0_CRATE = re.compile(r'C(?:s[0-9A-Za-z]*_)?(\d+)([A-Za-z_]\w*)')


def v0_parts(name):
    """The crate of a v0-mangled symbol (`_R…`) and the identifier after it."""
    m = V0_CRATE.search(name)
    if not m:
        return [name]
    crate = m.group(2)[:int(m.group(1))]
    rest = m.group(2)[int(m.group(1)):] + name[m.end():]
    nxt = re.match(r'(?:s[0-9A-Za-z]*_)?(\d+)(\w+)', rest)
    return [crate, nxt.group(2)[:int(nxt.group(1))]] if nxt else [crate]


def crate_of(name, ours):
    """The crate (and for ours, the module) a mangled or plain Rust name belongs to."""
    if name.startswith('_R'):
        parts = v0_parts(name)
        return f'{ours}::{parts[1]}' if parts[0] == ours and len(parts) > 1 else parts[0]
    segs = re.findall(r'(\d+)([A-Za-z_$][\w$.]*)', name[3:]) if name.startswith('_ZN') else []
    parts = []
    if segs:
        rest = name[3:]
        while rest and rest[0].isdigit():
            m = re.match(r'(\d+)', rest)
            ln = int(m.group(1))
            rest = rest[m.end():]
            parts.append(rest[:ln])
            rest = rest[ln:]
    else:
        parts = re.split(r'::', name)
    # `<a::b::T as Trait>::f` mangles as `_$LT$a..b..T$u20$as$u20$…`: the type's path counts.
    if parts and parts[0].startswith('_$LT$'):
        inner = parts[0][5:].split('$u20$')[0].lstrip('&$RF').split('$LT$')[0]
        parts = [q for q in inner.split('..') if q] + parts[1:]
    parts = [p for p in parts if p] or [name]
    head = parts[0].lstrip('_')
    if '$LT$' in name and not segs:
        head = 'generic'
    if head == ours and len(parts) > 1:
        return f'{ours}::{parts[1]}'
    return head


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    ours = args[args.index('--ours') + 1] if '--ours' in args else 'kube_bootstrap_lab'
    top = int(args[args.index('--top') + 1]) if '--top' in args else 30
    b = open(args[0], 'rb').read()
    imports, bodies, fnames, data = 0, [], {}, 0
    per_section = Counter()
    for sid, body in sections(b):
        if sid == 0:
            ln, i = leb(body, 0)
            sname = body[i:i + ln].decode()
            per_section[f'custom:{sname}'] += len(body)
            if sname == 'name':
                fnames = names(body[i + ln:])
            continue
        per_section[{1: 'type', 2: 'import', 3: 'function', 5: 'memory', 6: 'global', 7: 'export',
                     9: 'elem', 10: 'code', 11: 'data', 12: 'datacount'}.get(sid, str(sid))] += len(body)
        if sid == 2:
            imports = imported_functions(body)
        elif sid == 10:
            n, i = leb(body, 0)
            for _ in range(n):
                size, j = leb(body, i)
                bodies.append(size + (j - i))
                i = j + size
        elif sid == 11:
            data += len(body)
    total = len(b)
    print(f'{args[0]}: {total} bytes')
    for k, v in per_section.most_common():
        print(f'  section {k:<28} {v:>9}  {100 * v / total:5.1f} %')
    if not fnames:
        print('  (no name section: give cargo\'s wasm, before wasm-bindgen and wasm-opt)')
        return
    by = Counter()
    for k, size in enumerate(bodies):
        by[crate_of(fnames.get(imports + k, '?'), ours)] += size
    code = sum(bodies)
    print(f'code by crate (of {code} bytes of code):')
    for k, v in by.most_common(top):
        print(f'  {k:<44} {v:>9}  {100 * v / code:5.1f} %')


if __name__ == '__main__':
    main()
