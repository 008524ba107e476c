using BLite.Core.Collections.Indexes;

namespace BLite.Core.Collections;

/// <summary>Walks a secondary index's entries, yielding field key and primary key without reading documents.</summary>
internal sealed class IndexKeyCursor
{
    private readonly TreeCursor? _entries;

    internal IndexKeyCursor(TreeCursor? entries)
    {
        _entries = entries;
    }

    internal static IndexKeyCursor Empty => new(null);

    /// <summary>The encoded field key (all index components) of the current entry.</summary>
    public ReadOnlySpan<byte> FieldKey => _entries is null ? default : SecondaryEntry.FieldKeyOf(_entries.Key, _entries.Value.Span);

    /// <summary>The encoded primary key of the document the current entry belongs to.</summary>
    public ReadOnlySpan<byte> PrimaryKey => _entries is null ? default : SecondaryEntry.PrimaryKeyOf(_entries.Key, _entries.Value.Span);

    public bool MoveNext() => _entries is not null && _entries.MoveNext();
}
