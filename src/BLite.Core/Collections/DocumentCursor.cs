using BLite.Core.BTrees;
using BLite.Core.Collections.Indexes;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// Walks documents in primary-key order or in the order of a secondary index. Pull-based:
/// nothing is read ahead. <see cref="Document"/> and <see cref="PrimaryKey"/> are valid until
/// the next <see cref="MoveNext"/>; copy them to keep them. Over a secondary index the documents
/// are fetched through a <see cref="DocumentProbe"/>: the primary keys of equal field values come
/// in primary-key order, so consecutive documents mostly share a primary leaf or sit in the next
/// one, and each is found without a descent from the root.
/// </summary>
internal sealed class DocumentCursor
{
    private readonly TreeCursor? _entries;
    private readonly DocumentProbe? _primary;
    private ReadOnlyMemory<byte> _document;
    private byte[] _primaryKey = [];
    private int _primaryKeyLength;

    private DocumentCursor(TreeCursor? entries, DocumentProbe? primary)
    {
        _entries = entries;
        _primary = primary;
    }

    internal static DocumentCursor Empty => new(null, null);

    /// <summary>The current document's encoded primary key.</summary>
    public ReadOnlySpan<byte> PrimaryKey => _primaryKey.AsSpan(0, _primaryKeyLength);

    /// <summary>
    /// The current entry's encoded key: the field key (all index components) of a secondary
    /// index entry, or the primary key when walking the primary index. Valid until the next
    /// <see cref="MoveNext"/>.
    /// </summary>
    public ReadOnlySpan<byte> IndexKey => _entries is null || _document.IsEmpty
        ? default
        : _primary is null ? PrimaryKey : SecondaryEntry.FieldKeyOf(_entries.Key, _entries.Value.Span);

    /// <summary>The current document's C-BSON bytes.</summary>
    public ReadOnlyMemory<byte> Document => _document;

    internal static DocumentCursor OverPrimary(TreeCursor cursor) => new(cursor, null);

    internal static DocumentCursor OverIndex(TreeCursor entries, BTree primary, IPageReader pages, string filePath) =>
        new(entries, new DocumentProbe(primary, pages, filePath));

    public bool MoveNext()
    {
        if (_entries is null || !_entries.MoveNext())
        {
            _document = default;
            return false;
        }

        if (_primary is null)
        {
            KeepPrimaryKey(_entries.Key);
            _document = _entries.Value;
            return true;
        }

        var primaryKey = SecondaryEntry.PrimaryKeyOf(_entries.Key, _entries.Value.Span);
        KeepPrimaryKey(primaryKey);
        _document = _primary.Read(primaryKey);
        return true;
    }

    // One buffer for the cursor's life: a key per document would be an allocation per document.
    private void KeepPrimaryKey(ReadOnlySpan<byte> key)
    {
        if (_primaryKey.Length < key.Length)
        {
            _primaryKey = new byte[Math.Max(key.Length, 16)];
        }

        key.CopyTo(_primaryKey);
        _primaryKeyLength = key.Length;
    }
}
