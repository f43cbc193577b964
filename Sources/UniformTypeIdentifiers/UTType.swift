import Foundation

/// A uniform type identifier: what kind of content a file holds, and the filename extension and
/// MIME type that go with it. The Linux stand-in knows the common audio types and a few others;
/// `UTType(filenameExtension:)` and `UTType(_:)` answer nil for the rest.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    public let identifier: String
    public let preferredFilenameExtension: String?
    public let preferredMIMEType: String?
    /// The identifiers this type conforms to directly (e.g. WAV conforms to audio).
    private let parents: [String]
    private let otherExtensions: [String]

    private init(
        _ identifier: String, extensions: [String] = [], mime: String? = nil, conformsTo parents: [String]
    ) {
        self.identifier = identifier
        self.preferredFilenameExtension = extensions.first
        self.otherExtensions = Array(extensions.dropFirst())
        self.preferredMIMEType = mime
        self.parents = parents
    }

    public static let item = UTType("public.item", conformsTo: [])
    public static let content = UTType("public.content", conformsTo: [])
    public static let data = UTType("public.data", conformsTo: ["public.item"])
    public static let text = UTType("public.text", conformsTo: ["public.data", "public.content"])
    public static let plainText = UTType(
        "public.plain-text", extensions: ["txt", "text"], mime: "text/plain", conformsTo: ["public.text"])
    public static let json = UTType(
        "public.json", extensions: ["json"], mime: "application/json", conformsTo: ["public.text"])
    public static let audiovisualContent = UTType(
        "public.audiovisual-content", conformsTo: ["public.data", "public.content"])
    public static let audio = UTType("public.audio", conformsTo: ["public.audiovisual-content"])
    public static let wav = UTType(
        "com.microsoft.waveform-audio", extensions: ["wav", "wave"], mime: "audio/vnd.wave",
        conformsTo: ["public.audio"])
    public static let aiff = UTType(
        "public.aiff-audio", extensions: ["aiff", "aif"], mime: "audio/aiff", conformsTo: ["public.audio"])
    public static let mp3 = UTType("public.mp3", extensions: ["mp3"], mime: "audio/mpeg", conformsTo: ["public.audio"])
    public static let mpeg4Audio = UTType(
        "public.mpeg-4-audio", extensions: ["m4a"], mime: "audio/mp4", conformsTo: ["public.audio"])
    public static let appleProtectedMPEG4Audio = UTType(
        "com.apple.protected-mpeg-4-audio", extensions: ["m4p"], conformsTo: ["public.audio"])
    public static let audioFLAC = UTType(
        "org.xiph.flac", extensions: ["flac"], mime: "audio/flac", conformsTo: ["public.audio"])
    public static let oggAudio = UTType(
        "org.xiph.ogg-audio", extensions: ["ogg", "oga"], mime: "audio/ogg", conformsTo: ["public.audio"])
    public static let movie = UTType("public.movie", conformsTo: ["public.audiovisual-content"])

    private static let known: [UTType] = [
        .item, .content, .data, .text, .plainText, .json, .audiovisualContent, .audio, .wav, .aiff, .mp3, .mpeg4Audio,
        .appleProtectedMPEG4Audio, .audioFLAC, .oggAudio, .movie,
    ]

    /// The known type with this identifier.
    public init?(_ identifier: String) {
        guard let type = Self.known.first(where: { $0.identifier == identifier }) else { return nil }
        self = type
    }

    /// The known type this extension (without the dot, any case) belongs to.
    public init?(filenameExtension: String) {
        let wanted = filenameExtension.lowercased()
        guard
            let type = Self.known.first(where: {
                $0.preferredFilenameExtension == wanted || $0.otherExtensions.contains(wanted)
            })
        else { return nil }
        self = type
    }

    /// The known type with this MIME type.
    public init?(mimeType: String) {
        guard let type = Self.known.first(where: { $0.preferredMIMEType == mimeType.lowercased() }) else { return nil }
        self = type
    }

    /// Whether this type is `type` or conforms to it through its parents.
    public func conforms(to type: UTType) -> Bool {
        if self == type { return true }
        return parents.contains { parent in UTType(parent)?.conforms(to: type) ?? false }
    }

    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }
    public func isSupertype(of type: UTType) -> Bool { type.isSubtype(of: self) }

    /// The extensions files of this type have, preferred first.
    public var tags: [String] { (preferredFilenameExtension.map { [$0] } ?? []) + otherExtensions }

    public var description: String { identifier }

    public static func == (lhs: UTType, rhs: UTType) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// Whether `name` already ends in an extension of this type.
    func isNamed(_ name: String) -> Bool {
        let ext = (name as NSString).pathExtension.lowercased()
        return !ext.isEmpty && tags.contains(ext)
    }
}

extension URL {
    /// The URL with the type's preferred extension added; unchanged when the type has none.
    public func appendingPathExtension(for contentType: UTType) -> URL {
        guard let ext = contentType.preferredFilenameExtension else { return self }
        return appendingPathExtension(ext)
    }

    public mutating func appendPathExtension(for contentType: UTType) {
        self = appendingPathExtension(for: contentType)
    }

    /// The URL with `partialName` added as its last component, with the type's preferred extension
    /// unless the name already has one of the type's extensions.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        let url = appendingPathComponent(partialName)
        return contentType.isNamed(partialName) ? url : url.appendingPathExtension(for: contentType)
    }

    public mutating func appendPathComponent(_ partialName: String, conformingTo contentType: UTType) {
        self = appendingPathComponent(partialName, conformingTo: contentType)
    }
}
