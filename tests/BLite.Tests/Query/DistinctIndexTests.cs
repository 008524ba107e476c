using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.Query;

public enum Tier
{
    Bronze = 1,
    Silver = 2,
    Gold = 3,
}

public sealed class Ticket
{
    public ObjectId Id { get; set; }

    public string Queue { get; set; } = "";

    public string? Owner { get; set; }

    public int Priority { get; set; }

    public int Serial { get; set; }

    public int? Rating { get; set; }

    public Tier Tier { get; set; }

    public bool Open { get; set; }

    public Guid Team { get; set; }

    public decimal Cost { get; set; }

    public long Plain { get; set; }
}

public partial class TicketContext : DocumentDbContext
{
    public TicketContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, Ticket> Tickets { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<Ticket>()
            .HasIndex(t => t.Queue)
            .HasIndex(t => t.Owner)
            .HasIndex(t => t.Priority)
            .HasIndex(t => t.Serial)
            .HasIndex(t => t.Rating)
            .HasIndex(t => t.Tier)
            .HasIndex(t => t.Open)
            .HasIndex(t => t.Team)
            .HasIndex(t => t.Cost);
    }
}

/// <summary>
/// <c>Select(o => o.Path).Distinct()</c> over a whole collection with an index on the path reads
/// the distinct values from the index keys, in LINQ to Objects' first-seen order; anything the keys
/// cannot answer exactly reads the documents instead, with the same values.
/// </summary>
public sealed class DistinctIndexTests : IDisposable
{
    private static readonly Guid[] Teams =
    [
        Guid.Parse("c3a1f2e4-0000-4000-8000-000000000003"),
        Guid.Parse("0a000000-ffff-4000-8000-000000000001"),
        Guid.Parse("7b000000-0000-4000-8000-000000000002"),
    ];
    private readonly List<Ticket> _tickets;
    private readonly TicketContext _db = new(DocumentDbContextOptions.ForMemory());

    public DistinctIndexTests()
    {
        var random = new Random(5);
        _tickets = Enumerable.Range(0, 300).Select(i => new Ticket
        {
            Id = ObjectId.NewObjectId(),
            Queue = ((char)('a' + random.Next(6))).ToString() + (random.Next(3) == 0 ? "é" : ""),
            Owner = random.Next(4) == 0 ? null : "owner" + random.Next(5),
            Priority = random.Next(-3, 4) * 1000,
            Serial = i * 7 % 150,
            Rating = random.Next(3) == 0 ? null : random.Next(1, 6),
            Tier = (Tier)random.Next(1, 4),
            Open = i == 0 || random.Next(2) == 0,
            Team = i == 0 ? Teams[0] : Teams[random.Next(Teams.Length)],
            Cost = random.Next(4) + (random.Next(2) == 0 ? 0.5m : 0.50m),
            Plain = random.Next(7),
        }).OrderBy(t => t.Id).ToList();
        _db.Tickets.InsertMany(_tickets);
    }

    public void Dispose() => _db.Dispose();

    private void AssertWalksIndex<TValue>(Func<IQueryable<Ticket>, IQueryable<TValue>> build)
    {
        var expected = build(_tickets.AsQueryable()).ToList();
        var query = build(_db.Tickets.Query());
        var walks = _db.Tickets.IndexDistinctWalks;
        Assert.Equal(expected, query.ToList());
        Assert.Equal(walks + 1, _db.Tickets.IndexDistinctWalks);
        Assert.True(expected.Count > 1);
        Assert.Contains("distinct: keys of index", query.Explain());
        Assert.Equal(expected.Count, build(_db.Tickets.Query()).Count());
        Assert.Equal(walks + 2, _db.Tickets.IndexDistinctWalks);
    }

    [Fact]
    public void Strings_integers_enums_booleans_and_their_nullables_come_from_the_index_in_first_seen_order()
    {
        AssertWalksIndex(q => q.Select(t => t.Queue).Distinct());
        AssertWalksIndex(q => q.Select(t => t.Owner).Distinct());
        AssertWalksIndex(q => q.Select(t => t.Priority).Distinct());
        AssertWalksIndex(q => q.Select(t => t.Serial).Distinct());
        AssertWalksIndex(q => q.Select(t => t.Rating).Distinct());
        AssertWalksIndex(q => q.Select(t => t.Tier).Distinct());
        AssertWalksIndex(q => q.Select(t => t.Open).Distinct());
        AssertWalksIndex(q => q.Select(t => t.Team).Distinct());
        Assert.Contains(null, _db.Tickets.Query().Select(t => t.Owner).Distinct().ToList());
        var explain = _db.Tickets.Query().Select(t => t.Queue).Distinct().Explain();
        Assert.StartsWith("COLLSCAN [full scan]", explain);
        Assert.EndsWith("distinct: keys of index ix_Queue (no document read)", explain);
    }

    [Fact]
    public void Operators_after_the_Distinct_run_on_the_values_from_the_index()
    {
        var queues = _tickets.Select(t => t.Queue).Distinct().ToList();
        Assert.Equal(queues.Skip(1).Take(2).Select(q => q.Length), _db.Tickets.Query().Select(t => t.Queue).Distinct().Skip(1).Take(2).Select(q => q.Length).ToList());
        Assert.Equal(queues[^1], _db.Tickets.Query().Select(t => t.Queue).Distinct().Last());
        Assert.Equal(_tickets.Select(t => t.Rating).Distinct().Max(), _db.Tickets.Query().Select(t => t.Rating).Distinct().Max());
    }

    [Fact]
    public void Inside_a_transaction_the_index_walk_sees_the_transactions_own_writes()
    {
        using var transaction = _db.BeginTransaction();
        _db.Tickets.Insert(new Ticket { Id = ObjectId.NewObjectId(), Queue = "zz-new", Team = Teams[0] });
        var queues = _db.Tickets.Query().Select(t => t.Queue).Distinct().ToList();
        Assert.Equal("zz-new", queues[^1]);
        Assert.Equal(1, _db.Tickets.IndexDistinctWalks);
        Assert.Equal(_tickets.Select(t => t.Queue).Distinct().Count() + 1, queues.Count);
    }

    [Fact]
    public void Values_the_index_cannot_give_back_exactly_are_read_from_the_documents()
    {
        // Decimal keys drop trailing zeros (0.50m and 0.5m are one key), a Where narrows the
        // documents, Plain has no index.
        Assert.Contains(_tickets, t => t.Cost.ToString(System.Globalization.CultureInfo.InvariantCulture).EndsWith("50", StringComparison.Ordinal));
        Assert.Equal(_tickets.Select(t => t.Cost).Distinct(), _db.Tickets.Query().Select(t => t.Cost).Distinct().ToList());
        Assert.Equal(_tickets.Where(t => t.Open).Select(t => t.Queue).Distinct(), _db.Tickets.Query().Where(t => t.Open).Select(t => t.Queue).Distinct().ToList());
        Assert.Equal(_tickets.Select(t => t.Plain).Distinct(), _db.Tickets.Query().Select(t => t.Plain).Distinct().ToList());
        foreach (var query in new[]
        {
            _db.Tickets.Query().Select(t => t.Cost).Distinct().Explain(),
            _db.Tickets.Query().Where(t => t.Open).Select(t => t.Queue).Distinct().Explain(),
            _db.Tickets.Query().Select(t => t.Plain).Distinct().Explain(),
        })
        {
            Assert.DoesNotContain("distinct: keys of index", query);
            Assert.Contains("fields read", query);
        }

        Assert.Equal(0, _db.Tickets.IndexDistinctWalks);
    }
}
