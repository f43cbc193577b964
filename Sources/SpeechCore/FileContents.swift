import Foundation

/// Reads a whole file the harness was handed. An empty regular file is read without Foundation,
/// whose Linux reader leaks a 4 KiB buffer for every file that reports a size of 0 (its
/// zero-size path, meant for /proc files, never frees the buffer when nothing is read; found by
/// the fuzz targets).
public enum FileContents {
    /// The file's bytes; nil when it cannot be read.
    public static func read(atPath path: String) -> Data? {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 {
            return FileManager.default.isReadableFile(atPath: path) ? Data() : nil
        }
        return FileManager.default.contents(atPath: path)
    }
}
