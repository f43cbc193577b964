import Foundation
import SpeechCore

/// Typed access to one JSON record, producing issues that name the file, line and field.
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

    func object(_ text: String) throws -> [String: Any] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            throw issue(.malformedJSON(Self.shortReason(error)))
        }
        guard let object = value as? [String: Any] else {
            throw issue(.malformedJSON("a line must hold one JSON object"))
        }
        return object
    }

    /// A field of the wrong type, with what the line has instead.
    func wrongType(_ field: String, expected: String, found value: Any) -> ManifestIssue {
        issue(.wrongType(field: field, expected: expected, found: DecodingProblem.kind(of: value)))
    }

    func string(_ object: [String: Any], _ key: String, allowEmpty: Bool = false) throws -> String {
        guard let raw = object[key], !(raw is NSNull) else { throw issue(.missingField(key)) }
        guard let value = raw as? String else {
            throw wrongType(key, expected: "a string", found: raw)
        }
        if !allowEmpty && value.isEmpty { throw issue(.invalidValue(field: key, reason: "empty")) }
        return value
    }

    func optionalString(_ object: [String: Any], _ key: String) throws -> String? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let value = raw as? String else {
            throw wrongType(key, expected: "a string", found: raw)
        }
        return value
    }

    func number(_ object: [String: Any], _ key: String) throws -> Double {
        guard let raw = object[key], !(raw is NSNull) else { throw issue(.missingField(key)) }
        guard let value = Self.double(raw) else {
            throw wrongType(key, expected: "a number", found: raw)
        }
        return value
    }

    /// `duration` in seconds, or -1 (unknown: the audio header says) when absent.
    func optionalDuration(_ object: [String: Any]) throws -> Double {
        guard let seconds = try optionalNumber(object, "duration") else { return -1 }
        guard seconds > 0 && seconds.isFinite else {
            throw issue(.invalidValue(field: "duration", reason: "must be a positive number of seconds"))
        }
        return seconds
    }

    func optionalNumber(_ object: [String: Any], _ key: String) throws -> Double? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        guard let value = Self.double(raw) else {
            throw wrongType(key, expected: "a number", found: raw)
        }
        return value
    }

    func words(_ object: [String: Any]) throws -> [Utterance.AlignedWord]? {
        guard let raw = object["words"], !(raw is NSNull) else { return nil }
        guard let list = raw as? [Any] else {
            throw wrongType("words", expected: "a list", found: raw)
        }
        var previousEnd = -Double.infinity
        return try list.enumerated().map { index, item in
            guard let entry = item as? [String: Any], let word = entry["word"] as? String,
                let start = entry["start"].flatMap(Self.double), let end = entry["end"].flatMap(Self.double)
            else {
                throw wrongType("words[\(index)]", expected: "an object with word, start and end", found: item)
            }
            guard start >= 0, end >= start, start >= previousEnd - 1e-9 else {
                throw issue(
                    .invalidValue(
                        field: "words[\(index)]", reason: "times must be ordered, non-negative and not overlap"))
            }
            previousEnd = end
            return Utterance.AlignedWord(word: word, start: start, end: end)
        }
    }

    static func double(_ value: Any) -> Double? {
        // JSONSerialization gives NSNumber for numbers and booleans alike; a JSON boolean is
        // stored with the Objective-C type code "c".
        guard let number = value as? NSNumber else { return nil }
        if String(cString: number.objCType) == "c" { return nil }
        return number.doubleValue
    }

    static func shortReason(_ error: Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return String(text.prefix(200))
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
