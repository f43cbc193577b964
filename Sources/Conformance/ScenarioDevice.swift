import Foundation
import SpeechCore
import VirtualDevice

/// The device a scenario runs on: settings of the group "The simulated device" by their
/// `.speech-harness.json` keys (`{"speechTranscriber": "unavailable", "deviceLocale": "fr-FR"}`),
/// decoded into the device when the file is read, as the configuration file's values would be. A
/// scenario without one runs on the default device, whatever the environment says.
public struct ScenarioDevice: Decodable, Sendable, Hashable {
    /// The values by environment variable, as the file gave them.
    public private(set) var variables: [String: String] = [:]
    /// The device they describe, decoded once when the file is read.
    public private(set) var settings: DeviceSettings

    public init() { settings = Self.device([:]) ?? DeviceSettings() }

    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: FieldName.self)
        let settings = HarnessSettings.all.filter { $0.group == .device }
        for field in object.allKeys {
            guard let setting = settings.first(where: { $0.key == field.stringValue }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: field, in: object,
                    debugDescription:
                        "'\(field.stringValue)' is no device setting (expected one of: \(settings.map(\.key).joined(separator: ", ")))"
                )
            }
            let text = try object.decode(String.self, forKey: field)
            guard setting.accepts(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: field, in: object, debugDescription: "'\(text)': expected \(setting.allowed)")
            }
            variables[setting.variable] = text
        }
        guard let device = Self.device(variables) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "the device's values describe no device"))
        }
        self.settings = device
    }

    /// The device `variables` describe (each value already accepted by its setting).
    private static func device(_ variables: [String: String]) -> DeviceSettings? {
        try? DeviceSettings.fromEnvironment(variables)
    }
}
