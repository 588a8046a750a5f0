import Foundation
import Testing
import TallyCore
@testable import TallyIngest

@Suite("Decoding check-ins: numbers out of range")
struct FitnessDecodersTests {
    @Test func workoutMinutesMustBeAWholeNumberOfMinutesInADay() throws {
        let rows = try decodeAll(.checkins, """
            id,groupId,challengeId,userId,displayName,userPhotoURL,checkInPhotoURL,workoutEntryId,workoutDurationMinutes,createdAt
            k1,g1,c1,u1,Ana,,https://p/1.jpg,w1,45,2026-10-03T07:00:00-03:00
            k2,g1,c1,u1,Ana,,https://p/2.jpg,w2,-5,2026-10-03T07:00:00-03:00
            k3,g1,c1,u1,Ana,,https://p/3.jpg,w3,1e400,2026-10-03T07:00:00-03:00
            k4,g1,c1,u1,Ana,,https://p/4.jpg,w4,30.5,2026-10-03T07:00:00-03:00
            """, FitnessDecoders.checkin)
        #expect(try rows[0].result.get().minutes == 45)
        #expect(throws: FieldError(RejectReason(code: .numberOutOfRange, text: "workoutDurationMinutes -5 is outside 0...1440"))) { try rows[1].result.get() }
        #expect(throws: FieldError(RejectReason(code: .numberInvalid, text: "workoutDurationMinutes '1e400' is not a decimal number"))) { try rows[2].result.get() }
        #expect(throws: FieldError(RejectReason(code: .numberOutOfRange, text: "workoutDurationMinutes '30.5' is not a whole number"))) { try rows[3].result.get() }
    }
}
