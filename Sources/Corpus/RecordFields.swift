import Foundation
import SpeechCore

/// Where one manifest entry is (file, line, and its id once known), to locate the problems found
/// in it; for JSON lines, the decoding of the line into its typed record.
final class RecordFields {
    let file: String
    let line: Int
    var utteranceID: String?

    init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    func issue(_ problem: ManifestIssue.Problem) -> ManifestIssue {
        ManifestIssue(file: file, line: line, utteranceID: utteranceID, problem: problem)
    }

    /// The line decoded as `Line`; a problem names the field, and the entry's id when the line
    /// has a readable one.
    func decode<Line: ManifestLine>(_ type: Line.Type, _ text: String) throws -> Line {
        guard text.first(where: { !$0.isWhitespace }) == "{" else {
            throw issue(.malformedJSON("a line must hold one JSON object"))
        }
        let data = Data(text.utf8)
        do {
            return try DecodingProblem.decode(Line.self, from: data)
        } catch {
            utteranceID = (try? JSONDecoder().decode(LineIdentity.self, from: data))?.id
            throw issue(ManifestIssue.Problem(error))
        }
    }
}

/// What identifies a line whose other fields may not decode: `id`, or a NeMo line's audio path.
private struct LineIdentity: Decodable {
    var id: String?

    enum CodingKeys: String, CodingKey {
        case id
        case audioFilepath = "audio_filepath"
        case offset
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        if let id = try? fields.decode(String.self, forKey: .id) {
            self.id = id
        } else if let audio = try? fields.decode(String.self, forKey: .audioFilepath) {
            id = NeMoManifestLine.id(audio: audio, offset: try? fields.decode(Double.self, forKey: .offset))
        }
    }
}

/// Checks for text that would corrupt reports or alignments.
enum TextCheck {
    /// A description of the first problem in `text`, or nil when it is fine.
    static func problem(in text: String) -> String? {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x20: continue
            case 0x00...0x1F, 0x7F...0x9F:
                return String(format: "contains control character U+%04X", scalar.value)
            case 0xFFFE, 0xFFFF, 0xFFFD:
                return String(format: "contains U+%04X (a replaced or invalid character)", scalar.value)
            default: continue
            }
        }
        return nil
    }
}
