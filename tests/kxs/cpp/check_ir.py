#!/usr/bin/env python3
"""Checks the shape of the kxs macros in untransformed LLVM IR (text), as the transform expects it.

For every `__kxs_suspend_point` marker:
  * it is a plain `call` (never `invoke`: the marker is declared noexcept);
  * the instruction before it, in the same block, stores `blockaddress(@F, %L)` (F the enclosing
    function) into some pointer (the label slot);
  * the instruction after it is `br label %L`.
And every function with markers calls `__kxs_begin` exactly once.

usage: check_ir.py FILE.ll...   (e.g. from clang++ -O2 -S -emit-llvm -Xclang -disable-llvm-passes)
"""
import re
import sys

DEFINE = re.compile(r'^define .*@("?[^"(]+"?)\(')
STORE = re.compile(r'^store ptr blockaddress\(@("?[^,"]+"?), %([-\w.$"]+)\), ptr %[-\w.$"]+')
BR = re.compile(r'^br label %([-\w.$"]+)$')


def strip(line):
    line = line.strip()
    line = re.sub(r', !\w+ !\d+', '', line)  # metadata attachments
    line = re.sub(r', align \d+$', '', line)
    return line


def check(path):
    errors = []
    markers = 0
    fn = None
    insts = []  # instructions of the current function: (is_label, text)
    functions = []
    for raw in open(path, encoding='utf-8'):
        if fn is None:
            m = DEFINE.match(raw)
            if m:
                fn, insts = m.group(1), []
            continue
        if raw.startswith('}'):
            functions.append((fn, insts))
            fn = None
            continue
        s = raw.rstrip('\n')
        if not s.strip() or s.strip().startswith(';'):
            continue
        if re.match(r'^[-\w.$"]+:', s):
            insts.append((True, s.split(':')[0]))
        else:
            insts.append((False, strip(s)))
    for fn, insts in functions:
        begins = sum(1 for lab, t in insts if not lab and '@__kxs_begin(' in t)
        has_marker = False
        for k, (lab, t) in enumerate(insts):
            if lab or '@__kxs_suspend_point(' not in t:
                continue
            has_marker = True
            markers += 1
            if not t.startswith('call void @__kxs_suspend_point('):
                errors.append(f'{fn}: marker is not a plain call: {t}')
                continue
            prev = insts[k - 1] if k > 0 else (True, '')
            nxt = insts[k + 1] if k + 1 < len(insts) else (True, '')
            m = STORE.match(prev[1]) if not prev[0] else None
            if not m:
                errors.append(f'{fn}: no blockaddress store right before {t}: {prev[1]}')
                continue
            if m.group(1) != fn:
                errors.append(f'{fn}: blockaddress of another function @{m.group(1)}')
            b = BR.match(nxt[1]) if not nxt[0] else None
            if not b or b.group(1) != m.group(2):
                errors.append(f'{fn}: marker not followed by br to %{m.group(2)}: {nxt[1]}')
                continue
            if k + 2 >= len(insts) or insts[k + 2] != (True, m.group(2)):
                # the label block need not follow textually; it must exist
                if (True, m.group(2)) not in insts:
                    errors.append(f'{fn}: no block %{m.group(2)}')
        if has_marker and begins != 1:
            errors.append(f'{fn}: {begins} calls of __kxs_begin')
    return markers, errors


def main():
    bad = False
    for path in sys.argv[1:]:
        markers, errors = check(path)
        for e in errors:
            print(f'{path}: {e}')
        bad |= bool(errors) or markers == 0
        print(f'{path}: {markers} suspend points, {"ok" if not errors and markers else "FAILED"}')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
