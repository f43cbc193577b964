import Foundation
import Records

/// Finds each utterance's clip for the report pages: a link relative to the report folder, or,
/// when asked, the file itself inlined so the page travels alone.
public enum ReportAudio {
    /// Containers a browser's `<audio>` element plays, by extension.
    static let mediaTypes = [
        "wav": "audio/wav", "flac": "audio/flac", "mp3": "audio/mpeg", "ogg": "audio/ogg", "opus": "audio/ogg",
        "m4a": "audio/mp4",
    ]
    /// Clips larger than this are linked, not inlined.
    public static let embedLimitBytes = 512 * 1024
    /// Inlining stops once this much audio is in the page; the rest are linked.
    public static let embedTotalBytes = 48 * 1024 * 1024

    /// Player sources by utterance key (manifest and id).
    public static func sources(
        records: [UtteranceRecord], reportDirectory: String, embed: Bool
    ) -> [String: AudioSource] {
        sources(
            files: records.map { (ExplorerData.utteranceKey($0), $0.audio) }, reportDirectory: reportDirectory,
            embed: embed)
    }

    /// Player sources for (utterance key, audio file) pairs; the first file given for a key counts.
    static func sources(
        files: [(key: String, path: String?)], reportDirectory: String, embed: Bool
    ) -> [String: AudioSource] {
        var sources: [String: AudioSource] = [:]
        var embedded = 0
        for (key, path) in files {
            guard sources[key] == nil else { continue }
            guard let path else {
                sources[key] = AudioSource(
                    href: nil, note: "the record does not name its audio file (stored by an older version)")
                continue
            }
            let type = mediaTypes[(path as NSString).pathExtension.lowercased()]
            let link = relativeLink(from: reportDirectory, to: path)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let size = attributes[.size] as? Int
            else {
                sources[key] = AudioSource(href: nil, note: "audio file not found: \(path)")
                continue
            }
            if type == nil {
                sources[key] = AudioSource(
                    href: link,
                    note: "browsers do not play .\((path as NSString).pathExtension) files; the link downloads it")
            } else if embed, let type, size <= embedLimitBytes, embedded + size <= embedTotalBytes,
                let data = FileManager.default.contents(atPath: path)
            {
                embedded += size
                sources[key] = AudioSource(href: "data:\(type);base64," + data.base64EncodedString())
            } else {
                let reason =
                    !embed
                    ? nil
                    : size > embedLimitBytes
                        ? "too large to inline (\(size / 1024) KiB); linked" : "inlining limit reached; linked"
                sources[key] = AudioSource(href: link, note: reason)
            }
        }
        return sources
    }

    /// A URL path from `directory` to `file`, both taken relative to the working directory when
    /// not absolute, with every component percent-encoded.
    public static func relativeLink(from directory: String, to file: String) -> String {
        let base = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
        var shared = 0
        while shared < min(base.count, target.count - 1), base[shared] == target[shared] { shared += 1 }
        let components = Array(repeating: "..", count: base.count - shared) + target[shared...]
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        return components.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }
}
