using System.Text.Json.Serialization;
using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Query.References;

/// <summary>A customer account that orders refer to (the "one" side of the reference scenarios).</summary>
[BLiteDocument]
public sealed class Account
{
    [JsonIgnore]
    public ObjectId Id { get; set; }

    [BsonIgnore]
    [JsonPropertyName(nameof(Id))]
    public string IdText
    {
        get => Id.ToString();
        set => Id = ObjectId.Parse(value);
    }

    public string FullName { get; set; } = "";
    public string Email { get; set; } = "";
    public string City { get; set; } = "";
    public string Country { get; set; } = "";
}

/// <summary>
/// An order referring to its account: BLite stores the reference as the account's ObjectId, the
/// SQLite peer as the id text in the JSON (extracted into an indexed generated column).
/// </summary>
[BLiteDocument]
public sealed class LinkedOrder
{
    [JsonIgnore]
    public ObjectId Id { get; set; }

    [BsonIgnore]
    [JsonPropertyName(nameof(Id))]
    public string IdText
    {
        get => Id.ToString();
        set => Id = ObjectId.Parse(value);
    }

    [JsonIgnore]
    public DocumentRef<ObjectId, Account>? Account { get; set; }

    [BsonIgnore]
    [JsonPropertyName("AccountId")]
    public string? AccountIdText
    {
        get => Account?.Id.ToString();
        set => Account = value is null ? null : new DocumentRef<ObjectId, Account>(ObjectId.Parse(value));
    }

    public string OrderNumber { get; set; } = "";
    public DateTime PlacedAt { get; set; }
    public string Status { get; set; } = "";
    public decimal Total { get; set; }
    public List<OrderLine> Lines { get; set; } = [];
}

[JsonSerializable(typeof(Account))]
[JsonSerializable(typeof(LinkedOrder))]
internal sealed partial class LinkedJsonContext : JsonSerializerContext;

/// <summary>BLite's database for the reference scenarios: indexes on Account.City and on the order's reference.</summary>
public sealed partial class LinkedContext : DocumentDbContext
{
    public LinkedContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, Account> Accounts { get; set; } = null!;

    public DocumentCollection<ObjectId, LinkedOrder> Orders { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<Account>().HasIndex(a => a.City);
        model.Entity<LinkedOrder>().HasIndex(o => o.Account);
    }
}

/// <summary>Seeded accounts (one per ten orders, over <see cref="Cities"/> cities) and orders spread over them.</summary>
public sealed class LinkedDataset
{
    public const int Cities = 50;

    private LinkedDataset(List<Account> accounts, List<LinkedOrder> orders)
    {
        Accounts = accounts;
        Orders = orders;
    }

    public List<Account> Accounts { get; }

    public List<LinkedOrder> Orders { get; }

    public static string City(int number) => $"city-{number:D2}";

    public static LinkedDataset Create(int orders)
    {
        var random = new Random(11);
        var source = new OrderGenerator(17).Generate(orders);
        var accounts = new List<Account>(Math.Max(1, orders / 10));
        for (var i = 0; i < accounts.Capacity; i++)
        {
            accounts.Add(new Account
            {
                Id = OrderGenerator.ObjectIdFor(1_000_000 + i),
                FullName = $"Account {i}",
                Email = $"account{i}@example.com",
                City = City(random.Next(Cities)),
                Country = "NO",
            });
        }

        var linked = new List<LinkedOrder>(orders);
        foreach (var order in source)
        {
            linked.Add(new LinkedOrder
            {
                Id = order.Id,
                Account = new DocumentRef<ObjectId, Account>(accounts[random.Next(accounts.Count)].Id),
                OrderNumber = order.OrderNumber,
                PlacedAt = order.PlacedAt,
                Status = order.Status,
                Total = order.Total,
                Lines = order.Lines,
            });
        }

        return new LinkedDataset(accounts, linked);
    }
}
