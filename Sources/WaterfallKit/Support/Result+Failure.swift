extension Swift.Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
