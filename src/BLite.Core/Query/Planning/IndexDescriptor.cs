namespace BLite.Core.Query;

/// <summary>
/// What the planner needs to know about one index: the ordered field paths of its (composite)
/// key and how its entries relate to documents. The collections layer describes its indexes this
/// way; the planner never touches pages.
/// </summary>
/// <remarks>
/// Contract for the index maintainer:
/// <list type="bullet">
/// <item>A non-<see cref="Sparse"/> index has at least one entry for every document; a field the
/// document lacks is indexed as Null. A sparse index skips such documents, so it is only used
/// when the filter guarantees the leading field exists.</item>
/// <item>A <see cref="MultiKey"/> index has one entry per array element reached by its path, so a
/// document can appear more than once in a scan and must be de-duplicated.</item>
/// </list>
/// </remarks>
internal sealed class IndexDescriptor
{
    public IndexDescriptor(string name, IReadOnlyList<FieldPath> fields, bool unique = false, bool multiKey = false, bool sparse = false)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        ArgumentNullException.ThrowIfNull(fields);
        if (fields.Count == 0)
        {
            throw new ArgumentException($"Index '{name}' has no fields.", nameof(fields));
        }

        Name = name;
        Fields = fields.ToArray();
        Unique = unique;
        MultiKey = multiKey;
        Sparse = sparse;
    }

    /// <summary>The primary key: unique, single-valued, on <c>_id</c>.</summary>
    public static IndexDescriptor PrimaryKey { get; } = new("_id", [FieldPath.Id], unique: true) { IsPrimaryKey = true };

    public string Name { get; }

    public IReadOnlyList<FieldPath> Fields { get; }

    /// <summary>At most one document per full key (equality on every field finds at most one).</summary>
    public bool Unique { get; }

    /// <summary>The path crosses arrays: one entry per element, scans need de-duplication.</summary>
    public bool MultiKey { get; }

    /// <summary>Documents lacking the leading field have no entry.</summary>
    public bool Sparse { get; }

    public bool IsPrimaryKey { get; private init; }

    public override string ToString() => $"{Name} ({string.Join(", ", Fields)})";
}
