import sys, collections, re
root = sys.argv[2]; depth = int(sys.argv[3]) if len(sys.argv) > 3 else 1
counts = collections.Counter(); total = 0
stack = []
def flush():
    global total
    if not stack: return
    # stack[0] is leaf
    for i, f in enumerate(stack):
        if root in f:
            total += 1
            child = tuple(stack[max(0, i - depth):i][::-1]) if i > 0 else ('<self>',)
            counts[' > '.join(c[:90] for c in child)] += 1
            break
for line in open(sys.argv[1], errors='replace'):
    if not line.strip():
        flush(); stack = []; continue
    if line[0] not in ' \t':
        flush(); stack = []; continue
    parts = line.strip().split(None, 1)
    stack.append(parts[1] if len(parts) > 1 else parts[0])
flush()
print('total', total)
for k, v in counts.most_common(30): print(v, k)
