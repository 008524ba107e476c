namespace BLite.Core.Query;

/// <summary>One ordering term: values compare with <see cref="BsonValueComparer"/>; missing sorts as null (first ascending).</summary>
public sealed class SortKey : IEquatable<SortKey>
{
    public SortKey(FieldPath path, bool descending = false)
    {
        ArgumentNullException.ThrowIfNull(path);
        Path = path;
        Descending = descending;
    }

    public FieldPath Path { get; }

    public bool Descending { get; }

    public bool Equals(SortKey? other) => other is not null && Path.Equals(other.Path) && Descending == other.Descending;

    public override bool Equals(object? obj) => obj is SortKey other && Equals(other);

    public override int GetHashCode() => HashCode.Combine(Path, Descending);

    public override string ToString() => Descending ? Path + " desc" : Path.ToString();
}
