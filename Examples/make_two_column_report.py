#!/usr/bin/env python3
"""Writes two-column-report.rt: a ~40-page two-column report (header, `Page N of M` footer, contents,
bookmarks) built from the hand-written texts below. Deterministic: no randomness, no dates.
Run: python3 Examples/make_two_column_report.py  (writes next to this script)."""

import os

CHAPTERS = [
    ("Site and Survey", ["Boundaries", "Soil and Water", "Access Roads"]),
    ("Design Principles", ["Load Paths", "Daylight", "Materials"]),
    ("Structure", ["Foundations", "Frames", "Floors and Roofs"]),
    ("Services", ["Heating and Cooling", "Water Supply", "Electrical Systems"]),
    ("Construction Phases", ["Preparation", "Shell and Core", "Fit-out"]),
    ("Costs", ["Estimates", "Contingency", "Cash Flow"]),
    ("Risks", ["Ground Conditions", "Weather", "Supply Chains"]),
    ("Operation", ["Maintenance", "Monitoring", "Handover"]),
    ("Landscape", ["Planting", "Drainage", "Paths and Lighting"]),
    ("Accessibility and Use", ["Entrances", "Wayfinding", "Public Events"]),
    ("Lessons Learned", ["What Worked", "What Did Not", "Next Time"]),
]

# Hand-written paragraphs; each subsection uses several, rotated so neighbouring sections differ.
TEXTS = [
    "The survey began at the northern boundary, where the old fence line still marks the edge of the plot. "
    "Measurements were taken every ten metres and checked against the cadastral map; where the two disagreed, "
    "the fence was trusted only if its posts were older than the map.",
    "A building is a set of decisions made in a fixed order. Some of them cannot be undone once the concrete is "
    "poured, and those deserve the most time at the beginning, when changing them costs a phone call rather than "
    "a demolition crew.",
    "Water is the patient enemy of every structure. It finds the joint that was sealed in a hurry, the flashing "
    "that was lapped the wrong way, the drain that was never connected. The details in this chapter are written "
    "with that in mind.",
    "The estimates in this report are given in current prices. They include labour, materials and plant, but not "
    "the fees of the design team or the cost of finance, which are treated separately in the chapter on costs.",
    "Each phase ends with an inspection. Nothing is covered up until it has been seen, photographed and signed "
    "off by the person responsible; a missing signature stops the next trade from starting, however tight the "
    "programme has become.",
    "Daylight reaches about six metres into a room from a window of ordinary height. Beyond that depth the plan "
    "needs a second source of light, a courtyard, a roof light or a lower ceiling, or the space will be lit "
    "artificially all year.",
    "Timber, steel and concrete each have a place in the design. Timber is light and quick to erect, steel spans "
    "far with little depth, and concrete carries fire and sound better than either. The choice follows the load, "
    "not fashion.",
    "The risk register lists every event that could delay the work or raise its cost, with an owner, a likelihood "
    "and an action. It is reviewed at every site meeting, and a risk leaves the register only when its cause has "
    "gone, not when it has been forgotten.",
    "Maintenance begins on the day of handover. The operating manual describes what must be checked, how often and "
    "by whom; a building that is cleaned, inspected and repaired on time will outlast its first owners by decades.",
    "Monitoring data from the first two winters showed that the heat pumps ran longer than predicted during cold, "
    "still nights. The controls were adjusted to pre-heat the slab in the afternoon, when the outside air is warmer.",
    "Supply chains for glazing, lifts and switchgear have lead times measured in months. Orders for these items "
    "are placed as soon as the design is frozen, and the programme is built around their delivery dates.",
    "Access for heavy vehicles is limited to the western gate, which is wide enough for a low loader but not for "
    "two lorries passing. A one-way system with a marshal at the gate keeps deliveries moving during the busiest weeks.",
    "Every public entrance is level with the pavement outside it. Where the ground falls, the path rises at a "
    "gentle gradient with resting places, so that a wheelchair user, a parent with a pram and a delivery trolley "
    "all arrive by the same door as everyone else.",
    "Signs are placed at eye level for a seated reader and repeated at each decision point: the foot of the stair, "
    "the lift lobby and the end of every corridor. Colour helps, but the words and the arrows carry the meaning on "
    "their own.",
    "The hall seats two hundred for a meeting or a hundred and twenty at tables. Its floor was tested with a full "
    "audience stamping in time, and the partitions fold back into a cupboard that one person can open without tools.",
    "Acoustic panels in the hall absorb the middle frequencies where speech lives. An induction loop runs round the "
    "room under the floor finish, and its coverage was checked seat by seat with a receiver before the opening.",
]

# Footnotes: one in every third section, set at the foot of the column where its mark lands.
NOTES = [
    "Measured with a total station from two control points; the closing error was under five millimetres.",
    "Prices are those of the second quarter, excluding value added tax.",
    "The inspection records are kept with the operating manual and handed to the owner at completion.",
    "The gradient is at most one in twenty, with a level landing at least every ten metres of rise; where the "
    "ground did not allow that, the path was lengthened rather than steepened, and a handrail runs on both sides "
    "of every ramp so that a user can rest a hand on the side of their stronger arm in either direction.",
]

BULLETS = [
    "agree the scope and the budget in writing before design starts",
    "keep one drawing register and one version of each drawing",
    "record every change with its reason, its cost and its approval",
    "inspect before covering up, and photograph what was inspected",
]


def section_text(chapter: int, section: int) -> str:
    out = []
    start = (chapter * 5 + section * 3) % len(TEXTS)
    count = 20 + (chapter + section) % 4
    for k in range(count):
        text = TEXTS[(start + k) % len(TEXTS)]
        if k == 2:
            text = f"In section {chapter + 1}.{section + 1}, the figures were checked twice. " + text
        if k == 3 and (chapter + section) % 3 == 0:
            label = f"c{chapter + 1}s{section + 1}"
            text += f"[^{label}]"
            out.append(text)
            out.append(f"[^{label}]: " + NOTES[(chapter + section) % len(NOTES)])
            continue
        out.append(text)
        if k == 4 and (chapter + section) % 2 == 0:
            out.append("\n".join(f"- {b}" for b in BULLETS))
        if k == 6 and section == 1:
            # An internal link backwards to the first chapter and forwards to the last.
            out.append("See [Site and Survey](#site-and-survey) for the measurements and "
                       "[Operation](#operation) for what happens after handover.")
    return "\n\n".join(out)


def main() -> None:
    lines = [
        "---",
        "title: Riverside Building Report",
        "author: Typeset Examples",
        "columns: 2",
        "column-gap: 18pt",
        "column-rule: 0.5pt gray",
        "justify: true",
        "hyphenate: true",
        'header: "{{title}}\\t\\t{{section}}"',
        'footer: "\\tPage {{page}} of {{pages}}"',
        "---",
        "::: {columns=1}",
        "{size=24pt weight=bold space-after=4pt}",
        "Riverside Building Report",
        "",
        "{size=12pt color=#555555 space-after=18pt}",
        "Survey, design, construction and operation of a small civic building",
        "",
        "@toc depth=2 title=Contents",
        ":::",
        "",
        "@pagebreak",
        "",
    ]
    for c, (title, sections) in enumerate(CHAPTERS):
        lines += [f"# {title}", ""]
        for s, sub in enumerate(sections):
            lines += [f"## {sub}", "", section_text(c, s), ""]
    lines += ["# Summary", "", "The report closes with the same advice it began with: decide early, inspect "
              "everything, and keep water out.", ""]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "two-column-report.rt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
