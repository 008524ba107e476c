using BLite.Core.BTrees;
using BLite.Core.Collections.Indexes;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// Walks documents in primary-key order or in the order of a secondary index. Pull-based:
/// nothing is read ahead. <see cref="Document"/> and <see cref="PrimaryKey"/> are valid until
/// the next <see cref="MoveNext"/>; copy them to keep them.
/// </summary>
internal sealed class DocumentCursor
{
    private readonly TreeCursor? _entries;
    private readonly BTree? _primary;
    private readonly IPageReader? _pages;
    private readonly string _filePath;
    private ReadOnlyMemory<byte> _document;
    private byte[] _primaryKey = [];

    private DocumentCursor(TreeCursor? entries, BTree? primary, IPageReader? pages, string filePath)
    {
        _entries = entries;
        _primary = primary;
        _pages = pages;
        _filePath = filePath;
    }

    internal static DocumentCursor Empty => new(null, null, null, "");

    /// <summary>The current document's encoded primary key.</summary>
    public ReadOnlySpan<byte> PrimaryKey => _primaryKey;

    /// <summary>
    /// The current entry's encoded key: the field key (all index components) of a secondary
    /// index entry, or the primary key when walking the primary index. Valid until the next
    /// <see cref="MoveNext"/>.
    /// </summary>
    public ReadOnlySpan<byte> IndexKey => _entries is null || _document.IsEmpty
        ? default
        : _primary is null ? _primaryKey : SecondaryEntry.FieldKeyOf(_entries.Key, _entries.Value.Span);

    /// <summary>The current document's C-BSON bytes.</summary>
    public ReadOnlyMemory<byte> Document => _document;

    internal static DocumentCursor OverPrimary(TreeCursor cursor) => new(cursor, null, null, "");

    internal static DocumentCursor OverIndex(TreeCursor entries, BTree primary, IPageReader pages, string filePath) => new(entries, primary, pages, filePath);

    public bool MoveNext()
    {
        if (_entries is null || !_entries.MoveNext())
        {
            _document = default;
            return false;
        }

        if (_primary is null)
        {
            _primaryKey = _entries.Key.ToArray();
            _document = _entries.Value;
            return true;
        }

        var primaryKey = SecondaryEntry.PrimaryKeyOf(_entries.Key, _entries.Value.Span);
        _primaryKey = primaryKey.ToArray();
        if (!_primary.TryGet(_pages!, primaryKey, out _document))
        {
            throw new BLiteCorruptionException(_filePath, null, $"a secondary index entry points to primary key {IndexKeyText.Describe(primaryKey)}, which has no document.");
        }

        return true;
    }
}
