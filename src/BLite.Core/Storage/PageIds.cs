namespace BLite.Core.Storage;

/// <summary>Pages with a fixed role in every database file.</summary>
internal static class PageIds
{
    /// <summary>The file header; owned by the storage engine and never handed out.</summary>
    public const uint Header = 0;

    /// <summary>
    /// The first page the layers above storage own: it starts zeroed in a new database and is
    /// where the catalog (collections, index roots, sequences, field dictionary) is anchored.
    /// </summary>
    public const uint Catalog = 1;
}
