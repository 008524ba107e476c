using M = MongoDB.Bson;

namespace BLite.MongoInterop.Tests;

/// <summary>Documents built with the MongoDB .NET driver's BSON library, the peer of the cross-check.</summary>
internal static class MongoSamples
{
    private static readonly byte[] _uuid = Convert.FromHexString("00112233445566778899AABBCCDDEEFF");

    /// <summary>Every BSON 1.1 type MongoDB.Bson has a value for, with boundary values.</summary>
    public static M.BsonDocument EveryType(int id) => new()
    {
        { "_id", new M.ObjectId("5f1d7a2b9c3e4f5a6b7c8d" + id.ToString("x2", System.Globalization.CultureInfo.InvariantCulture)) },
        { "double", 1.5 },
        { "negativeZero", -0.0 },
        { "nan", double.NaN },
        { "infinity", double.NegativeInfinity },
        { "maxDouble", double.MaxValue },
        { "largeDouble", 1e20 },
        { "exponentDouble", 1.2345678921232E+18 },
        { "smallestDouble", double.Epsilon },
        { "negativeWholeDouble", -1.0 },
        { "string", "héllo 😀 \"q\" \\ \n\t\u0001" },
        { "empty", "" },
        { "document", new M.BsonDocument { { "a", 1 }, { "b", new M.BsonDocument() } } },
        { "array", new M.BsonArray { 1, "two", new M.BsonArray(), M.BsonNull.Value, new M.BsonDocument("x", true) } },
        { "binary", new M.BsonBinaryData([0, 1, 2, 254, 255]) },
        { "function", new M.BsonBinaryData([1], M.BsonBinarySubType.Function) },
        { "uuidLegacy", new M.BsonBinaryData(_uuid, M.BsonBinarySubType.UuidLegacy) },
        { "uuid", new M.BsonBinaryData(_uuid, M.BsonBinarySubType.UuidStandard) },
        { "md5", new M.BsonBinaryData(new byte[16], M.BsonBinarySubType.MD5) },
        { "encrypted", new M.BsonBinaryData([6, 6], M.BsonBinarySubType.Encrypted) },
        { "column", new M.BsonBinaryData([7], M.BsonBinarySubType.Column) },
        { "sensitive", new M.BsonBinaryData([8], M.BsonBinarySubType.Sensitive) },
        { "vector", new M.BsonBinaryData([0x03, 0x00, 0x01], M.BsonBinarySubType.Vector) },
        { "userDefined", new M.BsonBinaryData([9], M.BsonBinarySubType.UserDefined) },
        { "undefined", M.BsonUndefined.Value },
        { "objectId", new M.ObjectId("000000000000000000000000") },
        { "true", true },
        { "false", false },
        { "date", new M.BsonDateTime(1_709_251_199_123) },
        { "dateEpoch", new M.BsonDateTime(0) },
        { "dateBefore1970", new M.BsonDateTime(-1) },
        { "dateMin", new M.BsonDateTime(long.MinValue) },
        { "dateMax", new M.BsonDateTime(long.MaxValue) },
        { "null", M.BsonNull.Value },
        { "regex", new M.BsonRegularExpression("^a.*[é😀]$", "imsx") },
        { "regexEmpty", new M.BsonRegularExpression("", "") },
        { "code", new M.BsonJavaScript("function () { return 1; }") },
        { "symbol", (M.BsonSymbol)"sym" },
        { "codeWithScope", new M.BsonJavaScriptWithScope("x + y", new M.BsonDocument { { "x", 1 }, { "y", new M.BsonArray { "z" } } }) },
        { "int32Min", int.MinValue },
        { "int32Max", int.MaxValue },
        { "timestamp", new M.BsonTimestamp(-1, 1) },
        { "timestampZero", new M.BsonTimestamp(0L) },
        { "int64Min", long.MinValue },
        { "int64Small", 5L },
        { "decimal", new M.BsonDecimal128(M.Decimal128.Parse("1.50")) },
        { "decimalExponent", new M.BsonDecimal128(M.Decimal128.Parse("1E+3")) },
        { "decimalSmall", new M.BsonDecimal128(M.Decimal128.Parse("1.0E-9")) },
        { "decimalNegativeZero", new M.BsonDecimal128(M.Decimal128.Parse("-0E-6176")) },
        { "decimalZeroExponent", new M.BsonDecimal128(M.Decimal128.Parse("0E+9")) },
        { "decimalNaN", new M.BsonDecimal128(M.Decimal128.QNaN) },
        { "decimalInfinity", new M.BsonDecimal128(M.Decimal128.PositiveInfinity) },
        { "decimalNegativeInfinity", new M.BsonDecimal128(M.Decimal128.NegativeInfinity) },
        { "decimalMax", new M.BsonDecimal128(M.Decimal128.MaxValue) },
        { "decimalMin", new M.BsonDecimal128(M.Decimal128.MinValue) },
        { "decimalBeyondSystemDecimal", new M.BsonDecimal128(M.Decimal128.Parse("1.234567890123456789012345678901234E+6000")) },
        { "minKey", M.BsonMinKey.Value },
        { "maxKey", M.BsonMaxKey.Value },
        { "$notAWrapper", "plain key starting with $" },
    };

    public static byte[] ToBson(M.BsonDocument document) => M.BsonExtensionMethods.ToBson(document);

    public static M.BsonDocument FromBson(byte[] bytes) => M.Serialization.BsonSerializer.Deserialize<M.BsonDocument>(bytes);
}
