namespace BLite.Bson.Tests.Documents;

/// <summary>Documents holding every type with edge values, shared by round-trip and fuzz tests.</summary>
internal static class SampleDocuments
{
    public static BsonDocument EveryType() => new()
    {
        { "_id", ObjectId.Parse("5f1d7a2b9c3e4f5a6b7c8d9e") },
        { "double", 1.5 },
        { "negativeZero", -0.0 },
        { "nan", double.NaN },
        { "infinity", double.NegativeInfinity },
        { "maxDouble", double.MaxValue },
        { "float", 0.1f },
        { "string", "héllo 😀 \"quoted\" \\ \n\t\u0001" },
        { "empty", "" },
        { "nested", new BsonDocument { { "a", 1 }, { "b", new BsonDocument() } } },
        { "array", new BsonArray { 1, "two", new BsonArray(), BsonValue.Null, new BsonDocument { { "x", true } } } },
        { "binary", new byte[] { 0, 1, 2, 254, 255 } },
        { "userBinary", BsonValue.FromBinary(new byte[] { 9 }, (BsonBinarySubtype)0x80) },
        { "guid", Guid.Parse("00112233-4455-6677-8899-aabbccddeeff") },
        { "true", true },
        { "false", false },
        { "null", BsonValue.Null },
        { "int32Min", int.MinValue },
        { "int32Max", int.MaxValue },
        { "int64Min", long.MinValue },
        { "int64Small", 5L },
        { "uint64Max", ulong.MaxValue },
        { "decimal", 1.50m },
        { "decimalMax", decimal.MinValue },
        { "decimalTiny", 0.0000000000000000000000000001m },
        { "decimalNegativeZero", new decimal(0, 0, 0, true, 3) },
        { "utc", new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567) },
        { "local", new DateTime(638_000_000_000_000_001, DateTimeKind.Local) },
        { "unspecified", DateTime.MaxValue },
        { "minDate", DateTime.MinValue },
        { "offset", new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromMinutes(-345)).AddTicks(7) },
        { "timeSpan", TimeSpan.MinValue },
        { "dateOnly", DateOnly.MaxValue },
        { "timeOnly", TimeOnly.MaxValue },
        { "short", (short)-7 },
        { "char", 'Z' },
        { "uint", uint.MaxValue },
        { "enum", BsonValue.FromEnum(DayOfWeek.Friday) },
        { "Case", 1 },
        { "case", 2 },
    };

    public static BsonDocument Order(int seed)
    {
        var random = new Random(seed);
        var lines = new BsonArray();
        for (var i = 0; i < 5; i++)
        {
            lines.Add(new BsonDocument
            {
                { "Sku", "SKU-" + random.Next(10000) },
                { "Quantity", random.Next(1, 10) },
                { "UnitPrice", Math.Round((decimal)random.NextDouble() * 100, 2) },
                { "Tags", new BsonArray { "a", "b", "c" } },
            });
        }

        return new BsonDocument
        {
            { "_id", ObjectId.NewObjectId() },
            { "OrderNumber", "ORD-" + seed },
            { "PlacedAt", new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddSeconds(random.Next()) },
            { "Status", "shipped" },
            { "Total", 123.45m },
            { "Customer", new BsonDocument { { "FullName", "Ada Lovelace" }, { "Email", "ada@example.com" } } },
            { "Lines", lines },
            { "Id", Guid.NewGuid() },
        };
    }

    /// <summary>One of every type BSON 1.1 has beyond BLite's own, with boundary values.</summary>
    public static BsonDocument MongoTypes() => new()
    {
        { "minKey", BsonValue.MinKey },
        { "maxKey", BsonValue.MaxKey },
        { "undefined", BsonValue.Undefined },
        { "timestamp", new BsonTimestamp(uint.MaxValue, 1) },
        { "timestampZero", new BsonTimestamp(0, 0) },
        { "regex", new BsonRegex("^a.*[é😀]$", "imsx") },
        { "regexNoOptions", new BsonRegex("", "") },
        { "code", new BsonJavaScript("function () { return 1; }") },
        { "codeWithScope", new BsonJavaScriptWithScope("x + y", new BsonDocument { { "x", 1 }, { "y", new BsonArray { "z" } } }) },
        { "symbol", new BsonSymbol("sym") },
        { "dbPointer", new BsonDbPointer("db.coll", ObjectId.Parse("5f1d7a2b9c3e4f5a6b7c8d9e")) },
        { "dateBeforeYear1", BsonValue.FromUnixMilliseconds(long.MinValue) },
        { "dateAfterYear9999", BsonValue.FromUnixMilliseconds(long.MaxValue) },
        { "decimalExponent", BsonDecimal128.Parse("1E+3") },
        { "decimalZeroExponent", BsonDecimal128.Parse("-0E-6176") },
        { "decimalNaN", BsonDecimal128.NaN },
        { "decimalInfinity", BsonDecimal128.NegativeInfinity },
        { "decimalMax", BsonDecimal128.MaxValue },
        { "decimalSmall", BsonDecimal128.Parse("1.0E-9") },
        { "oldBinary", BsonValue.FromBinary(new byte[] { 1, 2 }, (BsonBinarySubtype)0x02) },
        { "columnBinary", BsonValue.FromBinary(new byte[] { 7 }, (BsonBinarySubtype)0x07) },
        { "inArray", new BsonArray { BsonValue.MinKey, new BsonTimestamp(1, 2), new BsonRegex("b", "i") } },
    };

    public static bool DeepEqualsExact(BsonValue left, BsonValue right)
    {
        if (left.Type != right.Type)
        {
            return false;
        }

        switch (left.Type)
        {
            case BsonType.Double:
                return BitConverter.DoubleToInt64Bits(left.AsDouble) == BitConverter.DoubleToInt64Bits(right.AsDouble);
            case BsonType.Decimal128:
                return left.AsDecimal128.BitsEqual(right.AsDecimal128);
            case BsonType.DateTime:
                return left.AsDateTime.Ticks == right.AsDateTime.Ticks && left.AsDateTime.Kind == right.AsDateTime.Kind;
            case BsonType.DateTimeOffset:
                return left.AsDateTimeOffset.Ticks == right.AsDateTimeOffset.Ticks && left.AsDateTimeOffset.Offset == right.AsDateTimeOffset.Offset;
            case BsonType.Document:
                var a = left.AsDocument;
                var b = right.AsDocument;
                if (a.Count != b.Count)
                {
                    return false;
                }

                for (var i = 0; i < a.Count; i++)
                {
                    if (a.GetField(i).Key != b.GetField(i).Key || !DeepEqualsExact(a.GetField(i).Value, b.GetField(i).Value))
                    {
                        return false;
                    }
                }

                return true;
            case BsonType.Array:
                var x = left.AsArray;
                var y = right.AsArray;
                return x.Count == y.Count && x.Zip(y).All(pair => DeepEqualsExact(pair.First, pair.Second));
            default:
                return left.Equals(right);
        }
    }
}
