/// Fitting planar audio to a channel count: fewer channels get the average of all (mono, copied
/// to each), more get the channels again in turn (mono to every channel).
public enum ChannelMap {
    public static func map(_ channels: [[Float]], to count: Int) -> [[Float]] {
        if channels.count == count || channels.isEmpty { return channels }
        if count < channels.count {
            let frames = channels[0].count
            let mono = (0..<frames).map { i in channels.reduce(0) { $0 + $1[i] } / Float(channels.count) }
            return Array(repeating: mono, count: count)
        }
        return (0..<count).map { channels[$0 % channels.count] }
    }
}
