namespace BLite;

/// <summary>
/// A write would give two documents the same value in a unique index (the primary <c>_id</c>
/// index included). The operation that raised it changed nothing; the rest of its transaction is
/// intact and may still commit.
/// </summary>
public sealed class BLiteUniqueConstraintException : BLiteException
{
    /// <summary>The name the primary index goes by in this exception.</summary>
    public const string PrimaryIndexName = "_id";

    public BLiteUniqueConstraintException(string collectionName, string indexName, string duplicateValue)
        : base(indexName == PrimaryIndexName
            ? $"Collection '{collectionName}' already has a document with _id {duplicateValue}."
            : $"Unique index '{indexName}' of collection '{collectionName}' already has the value {duplicateValue}.")
    {
        CollectionName = collectionName;
        IndexName = indexName;
        DuplicateValue = duplicateValue;
    }

    public string CollectionName { get; }

    /// <summary>The unique index that refused the write; <see cref="PrimaryIndexName"/> for a duplicate id.</summary>
    public string IndexName { get; }

    /// <summary>The duplicate key, as readable text (composite keys as a list).</summary>
    public string DuplicateValue { get; }
}
