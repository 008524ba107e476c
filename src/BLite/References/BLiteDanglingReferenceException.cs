namespace BLite;

/// <summary>
/// Include met a reference whose document does not exist, and was asked to throw
/// (<see cref="MissingReference.Throw"/>). Nothing was changed.
/// </summary>
public sealed class BLiteDanglingReferenceException : BLiteException
{
    public BLiteDanglingReferenceException(string collection, object id)
        : base($"A reference points to document '{id}' of collection '{collection}', which does not exist.")
    {
        Collection = collection;
        Id = id;
    }

    /// <summary>The collection the reference points into.</summary>
    public string Collection { get; }

    /// <summary>The id that was not found.</summary>
    public object Id { get; }
}
