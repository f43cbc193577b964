"""The check: generate, type-check, compare with the exclusions, print the coverage."""

import re
import subprocess
import sys

from .additions import parse_additions
from .checks import generate
from .interface import parse_interface, parse_interface_text

SOURCES = [  # (name, file under the reference folder, reader, imports)
    ("26", "Speech.swiftinterface", parse_interface, ["AVFoundation", "CoreMedia", "Foundation", "Speech"]),
    ("27", "Speech-27.0-beta-macos.swiftinterface", parse_interface, ["AVFoundation", "CoreMedia", "Foundation", "Speech"]),
    ("av27", "SDK27-additions.md", parse_additions, ["AVFoundation", "CoreMedia", "Foundation"]),
]


def read_exclusions(path):
    """{(sdk, key): reason} from the exclusions file: `sdk<TAB>declaration<TAB>reason` lines."""
    exclusions = {}
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise SystemExit(f"{path}:{number}: expected sdk<TAB>declaration<TAB>reason, got {line.strip()!r}")
        exclusions[(parts[0], parts[1])] = parts[2]
    return exclusions


def typecheck(source_path, compiler):
    """{line: [first error]} of swiftc -typecheck on the generated file."""
    run = subprocess.run(compiler + [source_path], capture_output=True, text=True)
    errors = {}
    for line in run.stderr.splitlines():
        m = re.match(re.escape(source_path) + r":(\d+):\d+: error: (.*)", line)
        if m:
            errors.setdefault(int(m.group(1)), []).append(m.group(2))
    return errors


# Canaries: shapes the check must accept, and near misses it must refuse, so that a check that
# could not fail (a generator that lost its exactness) fails the run instead.
CANARIES_GOOD = """
public struct AnalyzerInput {
  public init(buffer: AVAudioPCMBuffer, bufferStartTime: CMTime?)
  public let bufferStartTime: CMTime?
}
final public class SpeechTranscriber {
  public struct Preset : Sendable, Equatable, Hashable {
    public static let transcription: SpeechTranscriber.Preset
  }
}
"""
CANARIES_BAD = """
public struct AnalyzerInput {
  public init(buffer: AVAudioPCMBuffer, bufferStartTime: CMTime)
  public init(buffer: AVAudioPCMBuffer, startTime: CMTime?)
  public init(buffer: AVAudioPCMBuffer, bufferStartTime: CMTime?) async
  public var bufferStartTime: CMTime?
  public let bufferStartTime: CMTime
  public let bufferEndTime: CMTime?
}
final public class SpeechTranscriber : Codable {
  public struct Preset {
    public static let transcription: SpeechTranscriber.Preset?
    public static func transcription() -> SpeechTranscriber.Preset
  }
}
"""


def canaries(work, compiler, imports):
    """Problems with the check itself: a good canary refused or a bad one accepted."""
    problems = []
    for name, text, must_compile in [("good", CANARIES_GOOD, True), ("bad", CANARIES_BAD, False)]:
        decls = [d for d in parse_interface_text(text, "canary") if must_compile or d.kind not in ("type",)]
        source, where = generate(decls, imports)
        path = f"{work}/Canaries-{name}.swift"
        open(path, "w", encoding="utf-8").write(source)
        failed = {where[line] for line in typecheck(path, compiler) if line in where}
        for index, decl in enumerate(decls):
            if (index in failed) == must_compile:
                verdict = "refused a shape it must accept" if must_compile else "accepted a shape it must refuse"
                problems.append(f"the check {verdict}: {decl.key} (canary {name})")
    return problems


def main(argv):
    """api_surface.py REFERENCE_DIR EXCLUSIONS WORK_DIR -- SWIFTC ARGS...: generates, compiles,
    compares with the exclusions, prints the coverage; exit 1 on a failing declaration that is not
    listed, or a listed one that compiles."""
    reference, exclusions_path, work = argv[:3]
    compiler = argv[argv.index("--") + 1:]
    exclusions = read_exclusions(exclusions_path)
    seen, rows = set(), []
    problems = canaries(work, compiler, SOURCES[0][3])
    for sdk, name, reader, imports in SOURCES:
        decls = reader(f"{reference}/{name}", sdk)
        source, where = generate(decls, imports)
        path = f"{work}/Surface{sdk}.swift"
        open(path, "w", encoding="utf-8").write(source)
        errors = typecheck(path, compiler)
        failed = {where[line]: messages for line, messages in errors.items() if line in where}
        stray = [line for line in errors if line not in where]
        if stray:
            problems.append(f"{path}: errors outside any check (lines {stray[:5]}): {errors[stray[0]][0]}")
        compiled = excluded = 0
        reasons = {}
        for index, decl in enumerate(decls):
            key = (sdk, decl.key)
            seen.add(key)
            listed = exclusions.get(key)
            if index in failed and listed:
                excluded += 1
                reasons[listed] = reasons.get(listed, 0) + 1
            elif index in failed:
                problems.append(f"{sdk}:{decl.line} {decl.key}: does not compile: {failed[index][0]}")
            elif listed:
                problems.append(f"{sdk}:{decl.line} {decl.key}: compiles, but is listed as left out ({listed})")
                compiled += 1
            else:
                compiled += 1
        rows.append((sdk, name, len(decls), compiled, excluded, reasons))
    for key in sorted(set(exclusions) - seen):
        problems.append(f"{exclusions_path}: '{key[1]}' ({key[0]}) is no declaration of the interfaces")
    print(f"{'surface':<7} {'declarations':>12} {'compile':>16} {'left out':>9}  source")
    for sdk, name, total, compiled, excluded, reasons in rows:
        share = f"{compiled} ({100.0 * compiled / max(1, total):.1f}%)"
        print(f"{sdk:<7} {total:>12} {share:>16} {excluded:>9}  {name}")
        for reason, count in sorted(reasons.items(), key=lambda r: -r[1]):
            print(f"{'':<8}{count:>4} left out: {reason}")
    for problem in problems:
        print(f"api-surface: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
