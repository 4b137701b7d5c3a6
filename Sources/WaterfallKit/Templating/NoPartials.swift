/// For templates rendered on their own: every partial is missing.
struct NoPartials: PartialProvider {
    func partial(named name: String) -> Template? { nil }
}
