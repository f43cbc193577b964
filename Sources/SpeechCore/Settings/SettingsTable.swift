/// The settings table of docs/configuration.md, made from the declarations so that it cannot
/// drift from them (a test compares the two).
extension HarnessSettings {
    /// One Markdown table a group, each under its heading (`###`).
    public static func markdownTables() -> String {
        var out: [String] = []
        for group in SettingGroup.allCases {
            let settings = all.filter { $0.group == group }
            guard !settings.isEmpty else { continue }
            out.append("### \(group.rawValue)\n")
            out.append("| variable | `.speech-harness.json` key | option | takes | default | what it does |")
            out.append("| --- | --- | --- | --- | --- | --- |")
            for setting in settings {
                let cells = [
                    "`\(setting.variable)`", "`\(setting.key)`", setting.option.map { "`--\($0)`" } ?? "",
                    setting.allowed, setting.defaultText, setting.summary,
                ]
                out.append("| " + cells.map(escaped).joined(separator: " | ") + " |")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    private static func escaped(_ cell: String) -> String { cell.replacingOccurrences(of: "|", with: "\\|") }
}
