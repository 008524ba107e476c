using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.References;

/// <summary>
/// A projection of only <c>_id</c> under a filter one secondary index fully expresses is answered
/// from the index entries (every entry ends with the primary key): no document is read. Results,
/// their order, de-duplication and paging must equal the document-reading plan and LINQ-to-Objects.
/// </summary>
public sealed class CoveredIdTests : IDisposable
{
    private static readonly string[] Cities = ["Oslo", "Rome", "Lima", "Kyiv", "Nara"];

    private readonly TempDirectory _directory = new();
    private readonly ReferenceContext _db;
    private readonly List<Client> _clients = [];

    public CoveredIdTests()
    {
        _db = new ReferenceContext(_directory.File());
        var random = new Random(160);
        var shuffled = new List<Client>();
        for (var i = 0; i < 80; i++)
        {
            // No client lives in Nara; some have no city at all.
            shuffled.Add(new Client { Name = $"client-{i}", City = i % 9 == 0 ? null! : Cities[random.Next(Cities.Length - 1)] });
        }

        foreach (var client in shuffled.OrderBy(_ => random.Next()))
        {
            _db.Clients.Insert(client);
            _clients.Add(client);
        }
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Ids_of_a_city_come_from_the_index_alone_in_the_order_of_the_document_plan()
    {
        var documents = _db.Clients.Documents;
        var rows = 0;
        foreach (var city in Cities)
        {
            var query = _db.Clients.Query().Where(c => c.City == city);
            Assert.Contains("covers: _id", query.Explain(), StringComparison.Ordinal);

            var readBefore = documents.DocumentsRead;
            var covered = query.Select(c => c.Id).ToList();
            Assert.Equal(readBefore, documents.DocumentsRead);

            var fromDocuments = query.Select(c => new { c.Id, c.Name }).ToList().Select(r => r.Id).ToList();
            Assert.True(documents.DocumentsRead > readBefore || fromDocuments.Count == 0);
            var expected = _clients.Where(c => c.City == city).Select(c => c.Id).Order().ToList();
            Assert.Equal(expected, fromDocuments);
            Assert.Equal(expected, covered);
            rows += covered.Count;
        }

        Assert.True(rows > 50, $"only {rows} ids over every city");
    }

    [Fact]
    public void Ids_of_several_cities_through_the_index_join_come_in_id_order_once_each()
    {
        string[] cities = ["Rome", "Lima", "Rome", "Nara"];
        var query = _db.Clients.Query().Where(c => cities.Contains(c.City));
        Assert.Contains("covers: _id", query.Explain(), StringComparison.Ordinal);

        var readBefore = _db.Clients.Documents.DocumentsRead;
        var covered = query.Select(c => c.Id).ToList();
        Assert.Equal(readBefore, _db.Clients.Documents.DocumentsRead);

        var expected = _clients.Where(c => cities.Contains(c.City)).Select(c => c.Id).Order().ToList();
        Assert.NotEmpty(expected);
        Assert.Equal(expected, covered);
        Assert.Equal(expected, query.Select(c => new { c.Id, c.City }).ToList().Select(r => r.Id));
    }

    [Fact]
    public void Skip_and_take_page_the_covered_ids_as_they_page_documents()
    {
        var expected = _clients.Where(c => c.City == "Oslo").Select(c => c.Id).Order().ToList();
        Assert.True(expected.Count > 6, $"only {expected.Count} clients in Oslo");
        foreach (var (skip, take) in new[] { (0, 3), (2, 4), (5, 100), (0, 0), (expected.Count, 2) })
        {
            var readBefore = _db.Clients.Documents.DocumentsRead;
            var covered = _db.Clients.Query().Where(c => c.City == "Oslo").Skip(skip).Take(take).Select(c => c.Id).ToList();
            Assert.Equal(readBefore, _db.Clients.Documents.DocumentsRead);
            Assert.Equal(expected.Skip(skip).Take(take), covered);
        }
    }

    [Fact]
    public void A_residual_or_an_order_keeps_reading_documents_with_the_same_results()
    {
        var residual = _db.Clients.Query().Where(c => c.City == "Rome" && c.Name != "client-3");
        Assert.DoesNotContain("covers: _id", residual.Explain(), StringComparison.Ordinal);
        Assert.Equal(_clients.Where(c => c.City == "Rome" && c.Name != "client-3").Select(c => c.Id).Order(), residual.Select(c => c.Id).ToList());

        var ordered = _db.Clients.Query().Where(c => c.City == "Rome").OrderByDescending(c => c.Name);
        Assert.DoesNotContain("covers: _id", ordered.Explain(), StringComparison.Ordinal);
        Assert.Equal(_clients.Where(c => c.City == "Rome").OrderByDescending(c => c.Name, StringComparer.Ordinal).Select(c => c.Id), ordered.Select(c => c.Id).ToList());

        var missingCity = _clients.Where(c => c.City is null).Select(c => c.Id).Order().ToList();
        Assert.NotEmpty(missingCity);
        Assert.Equal(missingCity, _db.Clients.Query().Where(c => c.City == null).Select(c => c.Id).ToList());
    }
}
