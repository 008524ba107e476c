using BLite.Core.Query;

namespace BLite.Core.Collections;

/// <summary>
/// A secondary index: one or more field paths (dotted, e.g. <c>customer.email</c>) whose values,
/// in order, form the index key. A path that reaches an array yields one entry per element
/// (multikey). A missing field indexes as null, and a unique index treats null as a value like
/// any other (two documents that both lack the field collide).
/// </summary>
public sealed class IndexDefinition : IEquatable<IndexDefinition>
{
    /// <summary>Most fields a composite index may combine.</summary>
    public const int MaxFields = 16;

    private readonly string[] _fieldPaths;

    public IndexDefinition(string name, IReadOnlyList<string> fieldPaths, bool unique = false)
    {
        CatalogNames.Validate(name, "index name");
        ArgumentNullException.ThrowIfNull(fieldPaths);
        if (fieldPaths.Count == 0 || fieldPaths.Count > MaxFields)
        {
            throw new ArgumentException($"An index needs between 1 and {MaxFields} field paths; '{name}' has {fieldPaths.Count}.", nameof(fieldPaths));
        }

        _fieldPaths = new string[fieldPaths.Count];
        for (var i = 0; i < fieldPaths.Count; i++)
        {
            FieldPath.ParseIndexPath(fieldPaths[i]);
            _fieldPaths[i] = fieldPaths[i];
        }

        Name = name;
        Unique = unique;
    }

    public IndexDefinition(string name, string fieldPath, bool unique = false)
        : this(name, [fieldPath], unique)
    {
    }

    public string Name { get; }

    /// <summary>The dotted field paths, most significant first.</summary>
    public IReadOnlyList<string> FieldPaths => _fieldPaths;

    public bool Unique { get; }

    public bool Equals(IndexDefinition? other)
    {
        if (other is null || other.Name != Name || other.Unique != Unique || other._fieldPaths.Length != _fieldPaths.Length)
        {
            return false;
        }

        for (var i = 0; i < _fieldPaths.Length; i++)
        {
            if (!string.Equals(_fieldPaths[i], other._fieldPaths[i], StringComparison.Ordinal))
            {
                return false;
            }
        }

        return true;
    }

    public override bool Equals(object? obj) => Equals(obj as IndexDefinition);

    public override int GetHashCode() => HashCode.Combine(Name, Unique, _fieldPaths.Length);

    public override string ToString() =>
        $"{Name} ({string.Join(", ", _fieldPaths)}){(Unique ? " unique" : "")}";
}
