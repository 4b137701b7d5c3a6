/// Reading `waterfall.json`. Every key is optional; an unknown key, a value of the wrong type or a number
/// outside its range (`SettingLimits`) is an error that names the key and the file, so a typo never
/// silently does nothing and no number can overflow anything downstream.
extension SiteConfiguration {
    public struct FileError: Error, Equatable, CustomStringConvertible {
        public var file: String
        public var message: String
        public var description: String { "\(file): \(message)" }
    }

    /// The configuration in `text` (the contents of `file`) applied over `self`.
    public func applying(json text: String, file: String) throws(FileError) -> SiteConfiguration {
        let members = try Self.members(of: text, file: file)
        var result = self
        let reader = Reader(file: file)
        for (key, value) in members {
            try reader.apply(key, value, to: &result)
        }
        try result.checkCombinations(file: file)
        return result
    }

    /// An album's `waterfall.json`: only title, description, sort, reverse and cover.
    public static func albumSettings(json text: String, file: String) throws(FileError) -> AlbumSettings {
        let members = try Self.members(of: text, file: file)
        let reader = Reader(file: file)
        var settings = AlbumSettings()
        var probe = SiteConfiguration()
        for (key, value) in members {
            switch key {
            case "title", "description", "sort", "reverse":
                try reader.apply(key, value, to: &probe)
                switch key {
                case "title": settings.title = probe.title
                case "description": settings.description = probe.description
                case "sort": settings.sort = probe.sort
                default: settings.reverse = probe.reverse
                }
            case "cover":
                guard case .string(let name) = value else { throw FileError(file: file, message: "'cover' must be a string (a photo's file name)") }
                settings.cover = name
            default:
                let known = ["bands", "columnSpacing", "rowSpacing", "insets", "footerHeight", "flowTolerance", "placement",
                             "bottom", "maxCrop", "footerText",
                             "maxPixels", "quality", "denseQuality", "formats", "webpQuality", "avifQuality", "avifSpeed", "viewSize", "videoSize", "tileWidth", "densities", "originals", "perPage", "baseURL"].contains(key)
                throw FileError(file: file, message: known
                    ? "'\(key)' can only be set in the top folder's waterfall.json (an album may set title, description, sort, reverse and cover)"
                    : "unknown key '\(key)'")
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

    fileprivate struct Reader {
        let file: String

        func apply(_ key: String, _ value: JSONValue, to configuration: inout SiteConfiguration) throws(FileError) {
            switch key {
            case "title": configuration.title = try string(value, key)
            case "description": configuration.description = try string(value, key)
            case "bands": configuration.bands = try bands(value)
            case "columnSpacing": configuration.columnSpacing = try length(value, key)
            case "rowSpacing": configuration.rowSpacing = try length(value, key)
            case "insets": configuration.insets = try insets(value, key)
            case "footerHeight": configuration.footerHeight = try length(value, key, in: SettingLimits.footerHeight)
            case "flowTolerance": configuration.flowTolerance = try length(value, key, in: SettingLimits.flowTolerance)
            case "placement":
                let name = try string(value, key)
                guard let placement = PlacementPolicy.named(name) else {
                    throw fail("'placement' must be 'balanced', 'shortest' or 'round-robin' (got '\(name)')")
                }
                configuration.placement = placement
            case "bottom":
                let name = try string(value, key)
                guard let bottom = BottomSetting(rawValue: name) else {
                    throw fail("'bottom' must be 'natural' or 'flush' (got '\(name)')")
                }
                configuration.bottom = bottom
            case "maxCrop":
                guard let share = number(value) else { throw fail("'maxCrop' must be a number (got \(kind(value)))") }
                guard SettingLimits.maxCrop.contains(share) else {
                    throw outOfRange(key, "0 and 0.5 (a share of the tile's height)", value)
                }
                configuration.maxCrop = share
            case "footerText": configuration.footerText = try string(value, key)
            case "sort":
                let name = try string(value, key)
                guard let order = SortOrder(rawValue: name) else {
                    let choices = SortOrder.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                    throw fail("'sort' must be one of \(choices) (got '\(name)')")
                }
                configuration.sort = order
            case "reverse": configuration.reverse = try bool(value, key)
            case "maxPixels": configuration.maxPixels = try integer(value, key, in: SettingLimits.maxPixels)
            case "quality": configuration.quality = try integer(value, key, in: SettingLimits.quality)
            case "formats": configuration.formats = try formats(value)
            case "denseQuality": configuration.denseQuality = try integer(value, key, in: SettingLimits.quality)
            case "webpQuality": configuration.webpQuality = try integer(value, key, in: SettingLimits.quality)
            case "avifQuality": configuration.avifQuality = try integer(value, key, in: SettingLimits.quality)
            case "avifSpeed": configuration.avifSpeed = try integer(value, key, in: SettingLimits.avifSpeed)
            case "viewSize": configuration.viewSize = try integer(value, key, in: SettingLimits.viewSize)
            case "videoSize": configuration.videoSize = try integer(value, key, in: SettingLimits.videoSize)
            case "perPage": configuration.perPage = try integer(value, key, in: SettingLimits.perPage)
            case "tileWidth": configuration.tileWidth = try integer(value, key, in: SettingLimits.tileWidth)
            case "densities": configuration.densities = try densities(value)
            case "originals":
                let name = try string(value, key)
                guard let policy = OriginalsPolicy(rawValue: name) else {
                    throw fail("'originals' must be 'none', 'link' or 'copy' (got '\(name)')")
                }
                configuration.originals = policy
            case "baseURL":
                let text = try string(value, key)
                guard let url = BaseURL(text) else {
                    throw fail("'baseURL' \(BaseURL.problem(with: text)!), such as https://example.com/photos/ (got \(BaseURL.quoted(text)))")
                }
                configuration.baseURL = url
            default: throw fail("unknown key '\(key)'")
            }
        }

        private func formats(_ value: JSONValue) throws(FileError) -> [DeliveryFormat] {
            guard case .array(let elements) = value, !elements.isEmpty, elements.count <= SettingLimits.formatCount * 2 else {
                throw fail("'formats' must be a list such as [\"avif\", \"webp\", \"jpeg\"] ending with \"jpeg\"")
            }
            var names: [String] = []
            for (index, element) in elements.enumerated() { names.append(try string(element, "formats[\(index)]")) }
            switch DeliveryFormat.list(names) {
            case .success(let formats): return formats
            case .failure(let problem): throw fail("'formats' " + problem.message)
            }
        }

        private func densities(_ value: JSONValue) throws(FileError) -> [Int] {
            guard case .array(let elements) = value, !elements.isEmpty else {
                throw fail("'densities' must be a non-empty list of whole numbers, such as [1, 2]")
            }
            guard elements.count <= SettingLimits.densityCount else {
                throw fail("'densities' must list at most \(SettingLimits.densityCount) densities (got \(elements.count))")
            }
            var densities: [Int] = []
            for (index, element) in elements.enumerated() {
                densities.append(try integer(element, "densities[\(index)]", in: SettingLimits.density))
            }
            return densities
        }

        private func bands(_ value: JSONValue) throws(FileError) -> [BandSetting] {
            guard case .array(let elements) = value, !elements.isEmpty else {
                throw fail("'bands' must be a non-empty list of {\"minWidth\": …, \"columns\": …}")
            }
            guard elements.count <= SettingLimits.bandCount else {
                throw fail("'bands' must list at most \(SettingLimits.bandCount) bands (got \(elements.count))")
            }
            var bands: [BandSetting] = []
            for (index, element) in elements.enumerated() {
                let name = "bands[\(index)]"
                guard case .object(let members) = element else { throw fail("'\(name)' must be an object") }
                var band = BandSetting(minWidth: -1, columns: 0)
                for (key, value) in members {
                    switch key {
                    case "minWidth": band.minWidth = try length(value, "\(name).minWidth", in: SettingLimits.minWidth)
                    case "columns": band.columns = try integer(value, "\(name).columns", in: SettingLimits.columns)
                    case "columnSpacing": band.columnSpacing = try length(value, "\(name).columnSpacing")
                    case "rowSpacing": band.rowSpacing = try length(value, "\(name).rowSpacing")
                    default: throw fail("unknown key '\(name).\(key)'")
                    }
                }
                guard band.minWidth >= 0 else { throw fail("'\(name)' needs \"minWidth\"") }
                guard band.columns >= 1 else { throw fail("'\(name)' needs \"columns\"") }
                guard !bands.contains(where: { $0.minWidth == band.minWidth }) else {
                    throw fail("two bands start at \(band.minWidth.readable) px")
                }
                bands.append(band)
            }
            return bands
        }

        private func insets(_ value: JSONValue, _ key: String) throws(FileError) -> EdgeInsets {
            if case .array(let elements) = value, elements.count == 4 {
                var sides: [Double] = []
                for (index, element) in elements.enumerated() { sides.append(try length(element, "\(key)[\(index)]")) }
                return EdgeInsets(top: sides[0], left: sides[1], bottom: sides[2], right: sides[3])
            }
            guard number(value) != nil else {
                throw fail("'\(key)' must be a number or a list of four numbers [top, left, bottom, right]")
            }
            return EdgeInsets(all: try length(value, key))
        }

        private func string(_ value: JSONValue, _ key: String) throws(FileError) -> String {
            guard case .string(let text) = value else { throw fail("'\(key)' must be a string (got \(kind(value)))") }
            return text
        }

        private func bool(_ value: JSONValue, _ key: String) throws(FileError) -> Bool {
            guard case .bool(let flag) = value else { throw fail("'\(key)' must be true or false (got \(kind(value)))") }
            return flag
        }

        /// A length in CSS px; spacing and insets unless another range is given.
        private func length(_ value: JSONValue, _ key: String,
                            in range: ClosedRange<Double> = SettingLimits.spacing) throws(FileError) -> Double {
            guard let number = number(value) else { throw fail("'\(key)' must be a number (got \(kind(value)))") }
            guard range.contains(number) else {
                throw outOfRange(key, "\(range.lowerBound.readable) and \(range.upperBound.readable) px", value)
            }
            return number
        }

        /// A whole number in `range`; `1e3` counts as whole, `2.5` does not.
        private func integer(_ value: JSONValue, _ key: String, in range: ClosedRange<Int>) throws(FileError) -> Int {
            guard let number = number(value), number == number.rounded(.towardZero) else {
                throw fail("'\(key)' must be a whole number (got \(kind(value)))")
            }
            guard Double(range.lowerBound) <= number, number <= Double(range.upperBound) else {
                throw outOfRange(key, "\(range.lowerBound) and \(range.upperBound)", value)
            }
            return Int(number)
        }

        /// The value as a Double, nil when it is not a number. A number too large to hold is ±infinity
        /// here: outside every range, so it is refused, with its text quoted.
        private func number(_ value: JSONValue) -> Double? {
            switch value {
            case .int(let number): Double(number)
            case .double(let number): number
            case .bigNumber(let text): text.hasPrefix("-") ? -.infinity : .infinity
            default: nil
            }
        }

        private func outOfRange(_ key: String, _ bounds: String, _ value: JSONValue) -> FileError {
            fail("'\(key)' must be between \(bounds) (got \(Self.text(of: value)))")
        }

        /// A number as the message quotes it: whole numbers without ".0", the rest as Swift writes them.
        private static func text(of value: JSONValue) -> String {
            switch value {
            case .int(let number): return String(number)
            case .double(let number) where number == 0: return number.sign == .minus ? "-0" : "0"
            case .double(let number) where number == number.rounded() && abs(number) < 1e15: return String(Int(number))
            case .double(let number): return String(number)
            case .bigNumber(let text): return text
            default: return value.rendered()
            }
        }

        private func kind(_ value: JSONValue) -> String {
            switch value {
            case .string(let text): "the string \"\(text)\""
            case .int, .double, .bigNumber: "a number"
            case .bool(let flag): "\(flag)"
            case .null: "null"
            case .array: "a list"
            case .object: "an object"
            }
        }

        private func fail(_ message: String) -> FileError { FileError(file: file, message: message) }
    }
}
