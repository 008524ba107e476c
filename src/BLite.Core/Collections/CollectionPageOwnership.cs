using BLite.Core.Collections.Catalog;
using BLite.Core.Diagnostics;
using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// Hooks the collections layer into the storage engine's Verify: claims every page the catalog,
/// the stats pages and every primary and secondary tree (with their overflow chains) own, so the
/// engine can report pages owned twice, owned and free, or leaked; then runs the content checks
/// of <see cref="CollectionVerifier"/> on the same snapshot.
/// </summary>
internal sealed class CollectionPageOwnership : IPageOwnershipSource
{
    private readonly DocumentDatabase _database;

    public CollectionPageOwnership(DocumentDatabase database) => _database = database;

    public string Name => "collections";

    public void ClaimPages(IPageReader snapshot, PageOwnershipCollector collector)
    {
        collector.Claim(PageIds.Catalog, "the catalog anchor");
        CatalogAnchor anchor;
        CatalogSnapshot catalog;
        try
        {
            anchor = _database.Catalog.ReadAnchor(snapshot);
            catalog = _database.Catalog.GetSnapshot(snapshot);
        }
        catch (BLiteException ex)
        {
            collector.ReportProblem(PageIds.Catalog, $"the catalog cannot be read: {ex.Message}");
            return;
        }

        ClaimTree(snapshot, collector, anchor.TreeRoot, "the catalog tree");
        if (anchor.JournalRoot != 0)
        {
            ClaimTree(snapshot, collector, anchor.JournalRoot, "the change journal");
        }
        foreach (var collection in catalog.Collections)
        {
            collector.Claim(collection.StatsPage, $"the stats page of collection '{collection.Name}'");
            ClaimTree(snapshot, collector, collection.PrimaryRoot, $"the primary index of collection '{collection.Name}'");
            foreach (var index in collection.Indexes)
            {
                ClaimTree(snapshot, collector, index.RootPageId, $"index '{index.Definition.Name}' of collection '{collection.Name}'");
            }

            foreach (var vectorIndex in collection.VectorIndexes)
            {
                ClaimTree(snapshot, collector, vectorIndex.RootPageId, $"vector index '{vectorIndex.Definition.Name}' of collection '{collection.Name}'");
            }
        }

        var problems = new List<string>();
        try
        {
            CollectionVerifier.VerifyContent(_database, snapshot, problems);
        }
        catch (BLiteException ex)
        {
            problems.Add($"the collections could not be read to the end: {ex.Message}");
        }

        foreach (var problem in problems)
        {
            collector.ReportProblem(null, problem);
        }
    }

    private static void ClaimTree(IPageReader snapshot, PageOwnershipCollector collector, uint root, string owner)
    {
        var verification = BTreeVerifier.Verify(snapshot, root);
        foreach (var page in verification.OwnedPages)
        {
            collector.Claim(page, owner);
        }

        foreach (var problem in verification.Problems)
        {
            collector.ReportProblem(root, $"{owner}: {problem}");
        }
    }
}
