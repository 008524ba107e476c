using BLite.Bson;

namespace BLite.Core.Collections.Indexes;

/// <summary>
/// A dotted path resolved to field ids. Ids are looked up lazily because a path may name a field
/// no document has used yet; once a name has an id it keeps it for the life of the database, so
/// the resolved ids are cached.
/// </summary>
internal sealed class CompiledFieldPath
{
    private readonly string[] _segments;
    private ushort[]? _ids;

    public CompiledFieldPath(string path)
    {
        Path = path;
        _segments = [.. Query.FieldPath.ParseIndexPath(path).Segments];
    }

    public string Path { get; }

    public int Depth => _segments.Length;

    /// <summary>
    /// False while some segment has no id yet: then no stored document can contain the path,
    /// and every document indexes it as null.
    /// </summary>
    public bool TryResolve(BsonFieldDictionary fields, out ReadOnlySpan<ushort> ids)
    {
        var cached = _ids;
        if (cached is null)
        {
            var resolved = new ushort[_segments.Length];
            for (var i = 0; i < _segments.Length; i++)
            {
                if (!fields.TryGetId(_segments[i], out resolved[i]))
                {
                    ids = default;
                    return false;
                }
            }

            _ids = cached = resolved;
        }

        ids = cached;
        return true;
    }
}
