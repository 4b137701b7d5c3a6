/// Where `{{> name}}` finds its template. A name it does not know renders as nothing, as the spec says.
public protocol PartialProvider {
    func partial(named name: String) -> Template?
}

/// Partials by name, e.g. `["tile": try Template(source: "<li>{{title}}</li>", name: "tile.mustache")]`.
extension Dictionary: PartialProvider where Key == String, Value == Template {
    public func partial(named name: String) -> Template? { self[name] }
}
