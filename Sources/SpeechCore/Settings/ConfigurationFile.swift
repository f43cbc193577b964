import Foundation

/// `.speech-harness.json` in the working directory: settings for every program run there, by their
/// keys in ``HarnessSettings`` (`{"engine": "pocketsphinx", "microphonePacing": "fast"}`). An
/// environment variable wins over the file's key for the same setting.
public struct ConfigurationFile: Sendable, Hashable {
    public static let name = ".speech-harness.json"

    public let path: String
    /// The file's values, by their settings' environment variables.
    public let values: [String: String]

    /// The file in `directory`, read strictly; nil when there is none. Every key must be a
    /// setting's and every value text, a number or true/false that the setting can take.
    public static func load(directory: String) throws(ConfigurationFileError) -> ConfigurationFile? {
        let path = directory + "/" + name
        guard let data = FileContents.read(atPath: path) else { return nil }
        return try read(data, path: path)
    }

    /// `data` read as the configuration file at `path`.
    public static func read(_ data: Data, path: String) throws(ConfigurationFileError) -> ConfigurationFile {
        func problem(_ text: String) -> ConfigurationFileError { ConfigurationFileError(path: path, problem: text) }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            throw problem("not valid JSON (\(error.localizedDescription))")
        }
        guard let object = json as? [String: Any] else {
            throw problem("expected an object of settings, got \(DecodingProblem.kind(of: json))")
        }
        var values: [String: String] = [:]
        for key in object.keys.sorted() {
            guard let setting = HarnessSettings.all.first(where: { $0.key == key }) else {
                throw problem(
                    "field '\(key)': not a setting (known: \(HarnessSettings.all.map(\.key).joined(separator: ", ")))")
            }
            let text: String
            switch object[key] {
            case let value as String: text = value
            case let value as NSNumber:
                text = String(cString: value.objCType) == "c" ? (value.boolValue ? "true" : "false") : value.stringValue
            case let value?: throw problem("field '\(key)': expected a string, got \(DecodingProblem.kind(of: value))")
            case nil: continue
            }
            guard setting.accepts(text) else {
                throw problem("field '\(key)': '\(text)': expected \(setting.allowed)")
            }
            values[setting.variable] = text
        }
        return ConfigurationFile(path: path, values: values)
    }
}

/// A configuration file that cannot be read as settings.
public struct ConfigurationFileError: Error, CustomStringConvertible, Sendable, Hashable {
    public var path: String
    public var problem: String

    public var description: String { "\(path): \(problem)" }
}
