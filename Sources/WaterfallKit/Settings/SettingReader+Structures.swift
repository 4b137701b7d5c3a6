/// The settings that are lists or objects: formats, densities, bands and insets.
extension SettingReader {
    func formats(_ value: SettingValue, _ key: String) throws(SettingProblem) -> [DeliveryFormat] {
        let problem = value.isArgument ? "must be a list such as avif,webp,jpeg ending with jpeg"
            : "must be a list such as [\"avif\", \"webp\", \"jpeg\"] ending with \"jpeg\""
        let elements = try list(value, key, problem: problem)
        guard elements.count <= SettingLimits.formatCount * 2 else { throw fail(key, problem) }
        var names: [String] = []
        for (index, element) in elements.enumerated() { names.append(try string(element, "\(key)[\(index)]")) }
        switch DeliveryFormat.list(names) {
        case .success(let formats): return formats
        case .failure(let problem):
            guard case .argument(let text) = value else {
                throw fail(key, problem.message + (problem.showsExample ? ", such as [\"avif\", \"webp\", \"jpeg\"]" : ""))
            }
            throw fail(key, problem.message + (problem.showsExample ? ", such as avif,jpeg or avif,webp,jpeg" : "") + " (got '\(text)')")
        }
    }

    func densities(_ value: SettingValue, _ key: String) throws(SettingProblem) -> [Int] {
        let elements = try list(value, key, problem: "must be a non-empty list of whole numbers, such as " + (value.isArgument ? "1,2" : "[1, 2]"))
        guard elements.count <= SettingLimits.densityCount else {
            throw fail(key, "must list at most \(SettingLimits.densityCount) densities (got \(elements.count))")
        }
        var densities: [Int] = []
        for (index, element) in elements.enumerated() {
            densities.append(try integer(element, "\(key)[\(index)]", in: SettingLimits.density))
        }
        return densities
    }

    /// A number for all four sides, or four: `[top, left, bottom, right]` (`T,L,B,R` on the command line).
    func insets(_ value: SettingValue, _ key: String) throws(SettingProblem) -> EdgeInsets {
        let problem = value.isArgument ? "must be a number, or four numbers top,left,bottom,right (such as 8,16,8,16)"
            : "must be a number or a list of four numbers [top, left, bottom, right]"
        let sides: [SettingValue]
        switch value {
        case .json(.array(let elements)): sides = elements.map { .json($0) }
        case .argument(let text) where text.contains(","):
            sides = text.split(separator: ",", omittingEmptySubsequences: false).map { .argument($0.filter { $0 != " " }) }
        case .json where numeric(value) == nil: throw fail(key, problem)
        default: return EdgeInsets(all: try length(value, key))
        }
        guard sides.count == 4 else { throw fail(key, problem) }
        var lengths: [Double] = []
        for (index, side) in sides.enumerated() { lengths.append(try length(side, "\(key)[\(index)]")) }
        return EdgeInsets(top: lengths[0], left: lengths[1], bottom: lengths[2], right: lengths[3])
    }

    func bands(_ value: SettingValue, _ key: String) throws(SettingProblem) -> [SiteConfiguration.BandSetting] {
        guard case .json(.array(let elements)) = value, !elements.isEmpty else {
            throw fail(key, "must be a non-empty list of {\"minWidth\": …, \"columns\": …}")
        }
        guard elements.count <= SettingLimits.bandCount else {
            throw fail(key, "must list at most \(SettingLimits.bandCount) bands (got \(elements.count))")
        }
        var bands: [SiteConfiguration.BandSetting] = []
        for (index, element) in elements.enumerated() {
            let band = try self.band(element, "\(key)[\(index)]")
            guard !bands.contains(where: { $0.minWidth == band.minWidth }) else {
                throw SettingProblem(message: "two bands start at \(band.minWidth.readable) px")
            }
            bands.append(band)
        }
        return bands
    }

    private func band(_ element: JSONValue, _ name: String) throws(SettingProblem) -> SiteConfiguration.BandSetting {
        guard case .object(let members) = element else { throw fail(name, "must be an object") }
        var band = SiteConfiguration.BandSetting(minWidth: -1, columns: 0)
        for (key, value) in members {
            switch key {
            case "minWidth": band.minWidth = try length(.json(value), "\(name).minWidth", in: SettingLimits.minWidth)
            case "columns": band.columns = try integer(.json(value), "\(name).columns", in: SettingLimits.columns)
            case "columnSpacing": band.columnSpacing = try length(.json(value), "\(name).columnSpacing")
            case "rowSpacing": band.rowSpacing = try length(.json(value), "\(name).rowSpacing")
            default: throw SettingProblem(message: "unknown key '\(name).\(key)'")
            }
        }
        guard band.minWidth >= 0 else { throw fail(name, "needs \"minWidth\"") }
        guard band.columns >= 1 else { throw fail(name, "needs \"columns\"") }
        return band
    }
}
