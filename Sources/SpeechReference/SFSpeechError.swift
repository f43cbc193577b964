import Foundation

/// Errors of the Speech framework, with Apple's codes. Catch one code with
/// `catch SFSpeechError.audioDisordered` or compare `error.code`.
public struct SFSpeechError: CustomNSError, CustomStringConvertible, Equatable, Hashable, Sendable {
    /// Apple's error codes (legacy recogniser codes and the SpeechAnalyzer ones).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let internalServiceError = Code(rawValue: 1)
        public static let audioReadFailed = Code(rawValue: 2)
        public static let undefinedTemplateClassName = Code(rawValue: 7)
        public static let malformedSupplementalModel = Code(rawValue: 8)
        public static let timeout = Code(rawValue: 12)
        public static let missingParameter = Code(rawValue: 13)
        public static let audioDisordered = Code(rawValue: 14)
        public static let unexpectedAudioFormat = Code(rawValue: 15)
        public static let noModel = Code(rawValue: 16)
        public static let assetLocaleNotAllocated = Code(rawValue: 17)
        public static let tooManyAssetLocalesAllocated = Code(rawValue: 18)
        public static let incompatibleAudioFormats = Code(rawValue: 19)
        public static let moduleOutputFailed = Code(rawValue: 20)
        public static let cannotAllocateUnsupportedLocale = Code(rawValue: 21)
        public static let insufficientResources = Code(rawValue: 22)
        /// SDK 27: the audio source or the audio system could not be set up (the capture helpers'
        /// failure). Apple's number for it is not in what its pages and interface publish; 23 is the
        /// next free code, and may differ from the device's.
        public static let cannotConfigureAudioSystem = Code(rawValue: 23)

        /// Each code's name, as Apple spells the constant.
        public static let names: [Int: String] = [
            1: "internalServiceError", 2: "audioReadFailed", 7: "undefinedTemplateClassName",
            8: "malformedSupplementalModel", 12: "timeout", 13: "missingParameter", 14: "audioDisordered",
            15: "unexpectedAudioFormat", 16: "noModel", 17: "assetLocaleNotAllocated",
            18: "tooManyAssetLocalesAllocated", 19: "incompatibleAudioFormats", 20: "moduleOutputFailed",
            21: "cannotAllocateUnsupportedLocale", 22: "insufficientResources", 23: "cannotConfigureAudioSystem",
        ]

        public var description: String { Self.names[rawValue] ?? "code \(rawValue)" }
    }

    public static let errorDomain = "SFSpeechErrorDomain"
    /// As an NSError (`error as NSError`): this domain, the code's number, and the description.
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }

    public let code: Code
    /// What happened, in words, with the values involved.
    public let message: String

    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    public var description: String {
        message.isEmpty ? "SFSpeechError.\(code)" : "SFSpeechError.\(code): \(message)"
    }

    public static let audioDisordered = Code.audioDisordered
    public static let unexpectedAudioFormat = Code.unexpectedAudioFormat
    public static let noModel = Code.noModel
    public static let assetLocaleNotAllocated = Code.assetLocaleNotAllocated
    public static let tooManyAssetLocalesAllocated = Code.tooManyAssetLocalesAllocated
    public static let incompatibleAudioFormats = Code.incompatibleAudioFormats
    public static let moduleOutputFailed = Code.moduleOutputFailed
    public static let cannotAllocateUnsupportedLocale = Code.cannotAllocateUnsupportedLocale
    public static let insufficientResources = Code.insufficientResources
    public static let internalServiceError = Code.internalServiceError
    public static let audioReadFailed = Code.audioReadFailed
    public static let timeout = Code.timeout

    public static func == (lhs: SFSpeechError, rhs: SFSpeechError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension SFSpeechError.Code {
    /// Lets `catch SFSpeechError.insufficientResources` match an error with that code.
    public static func ~= (code: SFSpeechError.Code, error: any Error) -> Bool {
        (error as? SFSpeechError)?.code == code
    }
}

/// Reference-specific misuse that Apple's documentation forbids but names no code for.
public enum SpeechAnalyzerUsageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A module may belong to one analyzer only, for its whole life.
    case moduleBelongsToAnotherAnalyzer(String)

    public var description: String {
        switch self {
        case .moduleBelongsToAnotherAnalyzer(let module):
            return "\(module) is already used by another SpeechAnalyzer; modules cannot move between analyzers"
        }
    }
}
