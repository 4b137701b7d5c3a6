/// Reading `waterfall.json`. Every key is optional and is read as `Setting.all` declares it; an unknown key,
/// a value of the wrong type or a number outside its range (`SettingLimits`) is an error that names the key
/// and the file, so a typo never silently does nothing and no number can overflow anything downstream.
extension SiteConfiguration {
    public struct FileError: Error, Equatable, CustomStringConvertible {
        public var file: String
        public var message: String
        public var description: String { "\(file): \(message)" }
    }

    /// The configuration in `text` (the contents of `file`) applied over `self`.
    public func applying(json text: String, file: String) throws(FileError) -> SiteConfiguration {
        var result = self
        for (key, value) in try Self.members(of: text, file: file) {
            guard let setting = Setting.named(key) else { throw FileError(file: file, message: "unknown key '\(key)'") }
            do {
                try setting.apply(value, to: &result)
            } catch {
                throw FileError(file: file, message: error.message)
            }
        }
        try result.checkCombinations(file: file)
        return result
    }

    /// An album's `waterfall.json`: the settings an album may set (`Setting.album`), and `cover`.
    public static func albumSettings(json text: String, file: String) throws(FileError) -> AlbumSettings {
        var settings = AlbumSettings()
        var probe = SiteConfiguration()
        for (key, value) in try Self.members(of: text, file: file) {
            if key == "cover" {
                guard case .string(let name) = value else { throw FileError(file: file, message: "'cover' must be a string (a photo's file name)") }
                settings.cover = name
                continue
            }
            guard let setting = Setting.named(key) else { throw FileError(file: file, message: "unknown key '\(key)'") }
            guard setting.album else {
                let keys = Setting.all.filter(\.album).map(\.key).joined(separator: ", ")
                throw FileError(file: file, message: "'\(key)' can only be set in the top folder's waterfall.json (an album may set \(keys) and cover)")
            }
            do {
                try setting.apply(value, to: &probe)
            } catch {
                throw FileError(file: file, message: error.message)
            }
            switch key {
            case "title": settings.title = probe.title
            case "description": settings.description = probe.description
            case "sort": settings.sort = probe.sort
            default: settings.reverse = probe.reverse
            }
        }
        return settings
    }

    /// The top-level object of a settings file, its keys in file order.
    private static func members(of text: String, file: String) throws(FileError) -> [(String, JSONValue)] {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw FileError(file: "\(file):\(error.line):\(error.column)", message: error.message)
        }
        guard case .object(let members) = root else {
            throw FileError(file: file, message: "expected an object ({ ... }) at the top level")
        }
        return members
    }
}
