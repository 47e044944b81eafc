#!/usr/bin/env bash
# Pathological inputs from issue 8 (huge paragraphs, unbreakable text, deep nesting, exclusions, big tables):
# generates each, typesets it with the release binary and prints exit status, pages, wall and CPU seconds,
# peak memory and CPU seconds per MB of source (CPU time is steadier than wall time on a shared machine).
# Part of `make bench`, not of `make test` (timings vary).
# Usage: Benchmarks/pathological.sh [typeset-binary]   (default: builds and uses the release binary)
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
    bin="$1"
else
    swift build -c release --static-swift-stdlib --product typeset >/dev/null
    bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/typeset"
fi
out=Benchmarks/out/pathological
mkdir -p "$out"

gen() {  # gen NAME: writes $out/NAME.rt
    local f="$out/$1.rt"
    case "$1" in
        words-72465) python3 -c "print('word ' * 72465)" > "$f" ;;
        code-line-500k) python3 -c "print('\`\`\`\n' + 'x' * 500000 + '\n\`\`\`')" > "$f" ;;
        font-1000pt) python3 -c "print('---\nfont-size: 1000pt\njustify: true\n---\n\n' + 'word ' * 1800)" > "$f" ;;
        quotes-40) python3 -c "print('> ' * 40 + 'hello world')" > "$f" ;;
        list-40) python3 -c "print('\n'.join('  ' * i + '- item %d level text here' % i for i in range(40)))" > "$f" ;;
        exclude-full-page) python3 -c "print('@exclude rect(0, 0, 100%, 100%) pages=all\n\n' + 'word ' * 20000)" > "$f" ;;
        a-100k) python3 -c "print('a' * 100000)" > "$f" ;;
        a-200k) python3 -c "print('a' * 200000)" > "$f" ;;
        word-20k-exclude) python3 -c "print('@exclude circle(50%, 60pt, 50pt)\n\n' + 'x' * 20000)" > "$f" ;;
        word-20k) python3 -c "print('x' * 20000)" > "$f" ;;
        # Beside shapes on every page (pipeline_fuzz finds): long words beside a circle in two columns, and
        # 9-letter words at 18pt beside a triangle's slanted edges; each once cost a layout per band tried.
        long-words-beside-circle) python3 -c "
import random; random.seed(2)
w = ' '.join(''.join(random.choice('abcdefghij') for _ in range(random.randint(4, 12))) for _ in range(15000))
print('---\ncolumns: 2\nfont-size: 14pt\n---\n\n@exclude circle(50%, 30%, 3cm) pages=all\n\n'
      + w + ' ' + 'x' * 40000 + ' ' + w)" > "$f" ;;
        words-beside-slant) python3 -c "
print('---\ncolumns: 2\nfont-size: 18pt\n---\n\n@exclude polygon(0 0, 100% 0, 50% 40%) pages=all margin=4pt\n\n'
      + 'dhamsjclc cviqwkofav hjfcyuiktu ' * 8000)" > "$f" ;;
        body-50k-words) python3 -c "
import random; random.seed(1)
w = 'the of and layout table page column word text line break measure quick brown fox'.split()
for i in range(500): print(' '.join(random.choice(w) for _ in range(100)) + '\n')" > "$f" ;;
        table-50k-rows) python3 -c "
print('| name | count | note |'); print('|---|---:|---|')
for i in range(50000): print('| item %d | %d | some text %d |' % (i, i * 7, i % 13))" > "$f" ;;
        paragraph-7.5mb) python3 -c "print('word ' * 1500000)" > "$f" ;;
        # Found by make pipeline-fuzz (scripts/pipeline_fuzz.py regenerates them from their seeds): words of up
        # to 60,000 letters and tab-separated words in 16 columns beside a triangle, two letters a line; and
        # justified, hyphenated 24pt text in 12 columns beside it. Slow per page, not only per MB: each band
        # beside the slanted edge has a width of its own, so each line is a fresh layout.
        fuzz-long-words-16col-slant | fuzz-justified-12col-slant)
            local seed=132404029
            [ "$1" = fuzz-justified-12col-slant ] && seed=132404075
            python3 -c "import random, sys; sys.path.insert(0, 'scripts'); import pipeline_fuzz as pf
sys.stdout.write(pf.document(random.Random($seed))[0])" > "$f" ;;
        paragraph-7.5mb-16col) python3 -c "print('---\ncolumns: 16\n---\n\n' + 'word ' * 1500000)" > "$f" ;;
    esac
}

cases="words-72465 code-line-500k font-1000pt quotes-40 list-40 exclude-full-page a-100k a-200k word-20k word-20k-exclude long-words-beside-circle words-beside-slant fuzz-long-words-16col-slant fuzz-justified-12col-slant body-50k-words table-50k-rows paragraph-7.5mb paragraph-7.5mb-16col"
printf '%-28s %5s %6s %8s %8s %9s %8s %8s\n' case exit pages wall-s cpu-s peak-MB cpu-s/MB ms/page
rm -f "$out/summary.txt"
for name in ${CASES:-$cases}; do
    gen "$name"
    src="$out/$name.rt" pdf="$out/$name.pdf"
    rm -f "$pdf"
    /usr/bin/time -f '%e %U %S %M' -o "$out/$name.time" timeout 600 "$bin" "$src" -o "$pdf" >/dev/null 2>"$out/$name.err"
    status=$?
    read -r secs user sys kb < <(tail -1 "$out/$name.time")
    pages=$( [ -f "$pdf" ] && pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ {print $2}' || echo - )
    bytes=$(stat -c %s "$src")
    awk -v n="$name" -v st="$status" -v pg="${pages:--}" -v s="$secs" -v c="$(echo "$user $sys" | awk '{print $1 + $2}')" \
        -v kb="$kb" -v b="$bytes" \
        'BEGIN { printf "%-28s %5s %6s %8.2f %8.2f %9.1f %8.2f %8s\n", n, st, pg, s, c, kb / 1024, c / (b / 1048576),
                 (pg + 0 > 0 ? sprintf("%.1f", 1000 * c / pg) : "-") }' \
        | tee -a "$out/summary.txt"
done
# Issue 8's target for tables: CPU seconds per page within 2x of body text's.
awk '$1 == "body-50k-words" { b = $5 / $3 } $1 == "table-50k-rows" { t = $5 / $3 }
     END { if (b > 0 && t > 0) printf "table/body CPU per page: %.4f / %.4f s = %.2fx (target <= 2)\n", t, b, t / b }' \
    "$out/summary.txt"
