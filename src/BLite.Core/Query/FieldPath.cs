namespace BLite.Core.Query;

/// <summary>
/// A dotted path to a field, such as <c>customer.email</c>. Walking a path through an array
/// visits every element (MongoDB semantics), so <c>lines.sku</c> reaches the <c>sku</c> of each
/// order line. The empty path (<see cref="Self"/>) names the value under test itself; it is how
/// an <see cref="ElemMatchFilter"/> on an array of scalars refers to each element.
/// </summary>
public sealed class FieldPath : IEquatable<FieldPath>
{
    /// <summary>Most segments an index path may have; deeper documents are still stored and queried, just not indexed.</summary>
    public const int MaxIndexDepth = 32;

    private readonly string[] _segments;

    private FieldPath(string path, string[] segments)
    {
        Path = path;
        _segments = segments;
    }

    /// <summary>The value under test itself (an array element inside an element match).</summary>
    public static FieldPath Self { get; } = new(string.Empty, []);

    /// <summary>The primary key, stored under field id 0 in every database.</summary>
    public static FieldPath Id { get; } = new("_id", ["_id"]);

    public string Path { get; }

    public IReadOnlyList<string> Segments => _segments;

    public int Length => _segments.Length;

    public bool IsSelf => _segments.Length == 0;

    public static FieldPath Parse(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (path.Length == 0)
        {
            return Self;
        }

        var segments = path.Split('.');
        foreach (var segment in segments)
        {
            if (segment.Length == 0)
            {
                throw new ArgumentException($"Field path '{path}' has an empty segment.", nameof(path));
            }
        }

        return segments is ["_id"] ? Id : new FieldPath(path, segments);
    }

    /// <summary>Parses a path an index definition names: not empty, at most <see cref="MaxIndexDepth"/> segments.</summary>
    public static FieldPath ParseIndexPath(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (path.Length == 0)
        {
            throw new ArgumentException("An index field path cannot be empty.", nameof(path));
        }

        var parsed = Parse(path);
        if (parsed.Length > MaxIndexDepth)
        {
            throw new ArgumentException($"The field path '{path}' is deeper than {MaxIndexDepth} segments.", nameof(path));
        }

        return parsed;
    }

    public static FieldPath FromSegments(IReadOnlyList<string> segments)
    {
        ArgumentNullException.ThrowIfNull(segments);
        return segments.Count == 0 ? Self : Parse(string.Join('.', segments));
    }

    /// <summary>This path followed by <paramref name="suffix"/> (used to flatten element matches).</summary>
    public FieldPath Append(FieldPath suffix)
    {
        ArgumentNullException.ThrowIfNull(suffix);
        if (suffix.IsSelf)
        {
            return this;
        }

        return IsSelf ? suffix : Parse(Path + "." + suffix.Path);
    }

    public bool Equals(FieldPath? other) => other is not null && string.Equals(Path, other.Path, StringComparison.Ordinal);

    public override bool Equals(object? obj) => obj is FieldPath other && Equals(other);

    public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(Path);

    public override string ToString() => IsSelf ? "$" : Path;

    public static implicit operator FieldPath(string path) => Parse(path);
}
