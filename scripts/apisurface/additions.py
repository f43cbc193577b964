"""The AVFoundation, AVFAudio and CoreMedia declarations of SDK27-additions.md, as interface declarations."""

import re

from .interface import parse_interface_text

# Generic types are checked in the specialization Speech's signatures use.
SPECIALIZATIONS = {"CMReadySampleBuffer": ("Content", "CMReadOnlyDataBlockBuffer")}


def specialized(name):
    return f"{name}<{SPECIALIZATIONS[name][1]}>" if name in SPECIALIZATIONS else name
TYPE_ROW = r"(class|struct|enum|protocol)\s+(?!func\b|var\b|let\b)(\w+)"
KNOWN_CLASSES = ["AVCaptureDevice", "AVCaptureDeviceInput", "AVAudioTime", "AVAudioPCMBuffer", "AVAudioBuffer"]


def parse_additions(path, sdk="av"):
    """The declarations of the CoreMedia, AVFoundation and AVFAudio tables of SDK27-additions.md,
    each with its owner (read from its documentation page's address), as interface declarations."""
    rows, section = [], None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("## "):
            section = line[3:].split(":")[0].strip() if re.match(r"## (CoreMedia|AVFoundation|AVFAudio):", line) else None
            continue
        if not section or not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        first, page = cells[0], next((c for c in cells if "developer.apple.com" in c), "")
        m = re.match(r"``?(.+?)``?(?:\s*†)?(?:\s*\(`([\w.]+)`\))?\s*(?:†)?$", first)
        if not m:
            continue
        text, owner_named = m.group(1).strip(), m.group(2)
        segments = page.split("/documentation/")[-1].split("/")
        owner_key = segments[1].lower() if len(segments) > 2 else None
        rows.append((number, section, text, owner_named, owner_key))
    names = {re.match(TYPE_ROW, t).group(2) for _, _, t, _, _ in rows if re.match(TYPE_ROW, t)}
    names |= {o for _, _, _, o, _ in rows if o} | set(KNOWN_CLASSES)
    by_key = {n.lower(): n for n in names}
    interface = []
    for number, section, text, owner_named, owner_key in rows:
        owner = owner_named or by_key.get(owner_key or "")
        if re.match(TYPE_ROW, text):
            keyword, name = re.match(TYPE_ROW, text).groups()
            inherits = text.split(":", 1)[1].split(" where ")[0] if ":" in text.split(" where ")[0] else ""
            interface.append((number, f"public {keyword} {specialized(name)}"
                              + (f" : {inherits.strip()}" if inherits else "") + " {"))
            interface.append((number, "}"))
        elif owner:
            if owner in SPECIALIZATIONS:
                text = re.sub(r"\b" + SPECIALIZATIONS[owner][0] + r"\b", SPECIALIZATIONS[owner][1], text)
            interface.append((number, f"extension {specialized(owner)} {{"))
            interface.append((number, "public " + text.replace("class func", "static func")))
            interface.append((number, "}"))
    source = "\n".join(t for _, t in interface)
    decls = parse_interface_text(source, sdk)
    for d in decls:  # the row of the Markdown file, not of the synthetic interface
        d.line = interface[d.line - 1][0]
    classes = set(KNOWN_CLASSES) | {re.match(TYPE_ROW, t).group(2) for _, _, t, _, _ in rows
                                    if re.match(TYPE_ROW, t) and t.startswith("class")}
    for d in decls:
        if d.container and d.container_kinds[-1:] == ["extension"]:
            d.container_kinds = d.container_kinds[:-1] + ["class" if d.owner in classes else "struct"]
    return decls
