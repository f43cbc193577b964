import Foundation

/// Writing whole files with the system's own reason for a failure ("File too large", "No space
/// left on device"), which Foundation's atomic writes replace with a generic error.
public enum FileWriting {
    /// Replaces `path` with `data` atomically: written to a file beside it, then renamed over it.
    /// Returns the failure's reason, or nil when the file was written.
    public static func replace(_ path: String, with data: Data) -> String? {
        let temporary = path + ".partial"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        let written = data.withUnsafeBytes { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        let closed = close(descriptor) == 0 ? nil : errno
        if let failure = written ?? closed {
            unlink(temporary)
            return String(cString: strerror(failure))
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return reason
        }
        return nil
    }

    /// The innermost reason of a Foundation error (its underlying POSIX error's text), else its
    /// description.
    public static func reason(_ error: any Error) -> String {
        var innermost = error as NSError
        while let underlying = innermost.userInfo[NSUnderlyingErrorKey] as? NSError { innermost = underlying }
        if innermost.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(innermost.code))) }
        return "\(error)"
    }
}
