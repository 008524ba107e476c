using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.Generators.ExecutionTests.Models;

public enum Priority
{
    Low,
    Normal,
    High = 10,
}

public enum Tiny : byte
{
    Zero,
    Max = 255,
}

public enum Huge : long
{
    Small = 1,
    Big = long.MaxValue,
}

public enum Unsigned : ulong
{
    Top = ulong.MaxValue,
}

[Flags]
public enum Permissions
{
    None = 0,
    Read = 1,
    Write = 2,
    Admin = 4,
}

/// <summary>Nullable value and reference types, and enums of every underlying size.</summary>
[BLiteDocument]
public sealed class OptionalValues
{
    public long Id { get; set; }
    public int? MaybeCount { get; set; }
    public DateTime? MaybeWhen { get; set; }
    public Guid? MaybeGuid { get; set; }
    public decimal? MaybePrice { get; set; }
    public string? MaybeText { get; set; }
    public Address? MaybeAddress { get; set; }
    public Priority Priority { get; set; }
    public Priority? MaybePriority { get; set; }
    public Tiny Tiny { get; set; }
    public Huge Huge { get; set; }
    public Unsigned Unsigned { get; set; }
    public Permissions Permissions { get; set; }
}

/// <summary>Every supported collection shape, including collections of collections and of documents.</summary>
[BLiteDocument]
public sealed class Collections
{
    public int Id { get; set; }
    public int[] Numbers { get; set; } = [];
    public string?[] Words { get; set; } = [];
    public List<Address> Addresses { get; set; } = [];
    public IList<double> Readings { get; set; } = [];
    public IReadOnlyList<string> Labels { get; set; } = [];
    public ICollection<Guid> Keys { get; set; } = [];
    public IEnumerable<long> Sequence { get; set; } = [];
    public IReadOnlyCollection<Priority> Priorities { get; set; } = [];
    public HashSet<string> Tags { get; set; } = [];
    public ISet<int> Lucky { get; set; } = new HashSet<int>();
    public List<int?> Sparse { get; set; } = [];
    public List<List<int>> Grid { get; set; } = [];
    public int[][] Jagged { get; set; } = [];
    public List<GeoPoint> Route { get; set; } = [];
    public Dictionary<string, int> Counts { get; set; } = [];
    public IDictionary<string, Address> AddressBook { get; set; } = new Dictionary<string, Address>();
    public IReadOnlyDictionary<string, List<string>> Aliases { get; set; } = new Dictionary<string, List<string>>();
    public Dictionary<string, string?> Notes { get; set; } = [];
    public byte[] Blob { get; set; } = [];
    public byte[]? MaybeBlob { get; set; }
    public List<byte[]> Chunks { get; set; } = [];
    public List<string>? Missing { get; set; }
}

/// <summary>Naming conventions: [BsonId] on a member not named Id, [BsonField], [BsonIgnore], case-sensitive names.</summary>
[BLiteDocument]
public sealed class Renamed
{
    [BsonId]
    public string Code { get; set; } = "";

    [BsonField("n")]
    public string Name { get; set; } = "";

    public string name { get; set; } = "";

    [BsonIgnore]
    public string Cache { get; set; } = "";

    [BsonIgnore]
    public string Computed => Name + "!";

    public int id { get; set; }

    public string @class { get; set; } = "";
}
