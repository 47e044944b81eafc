#!/usr/bin/env python3
"""Writes a long, deterministic, English-like justified report in RT markup (default 35,000 words,
2 columns, justified, hyphenated) for Benchmarks/evenness_breaker.py and timing runs.
Usage: make_justified_report.py [WORDS] > report.rt"""
import random
import sys

WORDS = int(sys.argv[1]) if len(sys.argv) > 1 else 35000
rng = random.Random(1729)

nouns = """system report council harbour committee government railway engineer district survey measurement
letter question country village river morning evening station document paragraph interpretation
development population agriculture production temperature management arrangement recommendation
committee building windows machinery statement department university laboratory experiment
telegraph information construction correspondence instrument manufacturer organisation authority
neighbourhood circumstance responsibility opportunity difficulty understanding community electricity
company printer typesetter compositor publisher manuscript chapter volume library catalogue archive
weather harvest market merchant traveller journey distance mountain valley coastline lighthouse""".split()
verbs = """examined recorded considered established described measured observed reported suggested
confirmed prepared delivered recommended published discovered constructed maintained distributed
represented investigated demonstrated acknowledged transformed accompanied encountered""".split()
adjectives = """considerable remarkable important general particular successful extraordinary practical
continuous independent preliminary substantial comfortable significant experimental reasonable
northern southern eastern western ancient modern careful narrow broad ordinary""".split()
adverbs = "carefully gradually immediately frequently eventually naturally particularly entirely".split()
small = "the a of in on at by with from for and to as that which this".split()
names = "Whitcombe Harrowgate Pemberton Ashford Kilbride Lindqvist Marchetti Thornbury".split()

def phrase():
    parts = [rng.choice(["the", "a", "every", "each", "this"]), rng.choice(adjectives), rng.choice(nouns)]
    if rng.random() < 0.4:
        parts += [rng.choice(["of", "in", "near", "beyond"]), "the", rng.choice(nouns)]
    return parts

def sentence():
    words = phrase() + [rng.choice(verbs)] + phrase()
    if rng.random() < 0.5:
        words += [rng.choice(["while", "because", "although", "when"])] + phrase() + ["was", rng.choice(verbs)]
    if rng.random() < 0.3:
        words.insert(rng.randrange(1, len(words)), rng.choice(adverbs))
    if rng.random() < 0.2:
        words += ["by", "Mr.", rng.choice(names)]
    if rng.random() < 0.1:
        words += ["in", str(rng.randrange(1840, 1920))]
    words[0] = words[0].capitalize()
    return " ".join(words) + rng.choice([".", ".", ".", ";", ","]).replace(";", ".").replace(",", ".")

print("---")
print("title: A Long Justified Report")
print("columns: 2")
print("justify: true")
print("hyphenate: true")
print("---")
print()
count = 0
section = 0
while count < WORDS:
    if section == 0 or rng.random() < 0.08:
        section += 1
        print(f"# Section {section}: the {rng.choice(adjectives)} {rng.choice(nouns)}")
        print()
    sentences = []
    n = rng.randrange(60, 160)
    k = 0
    while k < n:
        s = sentence()
        sentences.append(s)
        k += len(s.split())
    para = " ".join(sentences)
    count += len(para.split())
    print(para)
    print()
