namespace BLite.Bson;

/// <summary>Limits shared by the writer, the reader and the JSON converter.</summary>
public static class BsonLimits
{
    /// <summary>
    /// The deepest nesting of documents and arrays (the top-level document counts as 1). Bounded so
    /// recursive readers such as BsonDocument can never overflow the stack.
    /// </summary>
    public const int MaxDepth = 100;

    /// <summary>The most distinct field names one dictionary can hold (ids 0–65535).</summary>
    public const int MaxFieldNames = ushort.MaxValue + 1;
}
